/// How the typed call site calls a synchronous factory, with its argument types: it keeps the
/// instance, and returns its dynamic type (asking for it there costs nothing); the engine asks for
/// the instance as `Any` only if it keeps or completes it.
@usableFromInline
typealias MakeCall = (Binding, Resolution) throws -> ObjectIdentifier

// How a synchronous resolve makes an instance: the engine's steps, on erased instances, at a
// position of the thread's stack. Async resolves run every synchronous factory and completion
// through here too, as a section of the stack. The typed call site (Origin) calls the factory and
// casts.

extension ResolveStack {
    /// Resolves the registration under `key` with `values` at position (`t`, `f`), looked up
    /// from `lookup`; `kept` takes a kept instance out of its box (then the result is `.made`).
    func resolve(
        _ key: ServiceKey,
        _ values: Arguments?,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        on thread: ResolvingThread,
        factory: MakeCall,
        instance: () -> Any,
        kept: (Borrowed<AnyObject>) -> Void
    ) throws(ResolutionError) -> Found {
        if let owner = unwindsTo(of: t) { try Self.checkSuspension(of: owner) }
        guard let (entry, owner) = lookup.entryAndParent(for: key) ?? childOnly(key, from: lookup, at: t, f) else {
            return .unregistered
        }
        let binding: Binding
        if isObserved(t) {
            binding = entry.with { $0.read().binding }
        } else {
            guard let unkept = entry.with({ $0.bindingUnlessKept(else: kept) }) else { return .made }
            binding = unkept
        }
        if binding.isStandIn { return .unregistered }
        return try resolve(
            binding, keptIn: entry.object, by: owner, from: lookup, at: t, f, values, factory, instance, on: thread)
    }

    /// Throws if `owner`, the async resolve a section unwinds to, is to suspend.
    @inline(never)
    private static func checkSuspension(of owner: Resolve) throws(ResolutionError) {
        if let pending = owner.pendingSuspension { throw .suspension(for: pending) }
    }

    /// Resolves `binding`, read from `entry` (which keeps no instance for it, or is observed),
    /// at position (`t`, `f`).
    func resolve(
        _ binding: Binding,
        keptIn entry: RegistryEntry,
        by owner: Container?,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        _ values: Arguments?,
        _ factory: MakeCall,
        _ instance: () -> Any,
        on thread: ResolvingThread
    ) throws(ResolutionError) -> Found {
        guard isObserved(t) else {
            return try make(
                binding, keptIn: entry, by: owner, from: lookup, at: t, f, values, factory, instance, on: thread)
        }
        return try observed(
            binding, keptIn: entry, by: owner, from: lookup, at: t, f, values, factory, instance, on: thread)
    }

    /// Resolves `binding` at position (`t`, `f`) of a traced top, or a dry run's.
    @inline(never)
    private func observed(
        _ binding: Binding,
        keptIn entry: RegistryEntry,
        by owner: Container?,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        _ values: Arguments?,
        _ factory: MakeCall,
        _ instance: () -> Any,
        on thread: ResolvingThread
    ) throws(ResolutionError) -> Found {
        let lookup = binding.isShared ? owner ?? lookup : lookup
        return try heavy(t).observe(binding, at: frame(at: t, f), isCached: isCached(binding, entry, lookup, values, t))
        { () throws(ResolutionError) in
            try makeOutOfLine(
                binding, keptIn: entry, by: owner, from: lookup, at: t, f, values, factory, instance, on: thread)
        }
    }

    /// ``make(_:keptIn:by:from:at:_:_:_:_:on:)`` emitted once, for the ways in that are not the
    /// hot path (a traced or dry-run resolve, a `Lazy`'s first read, an async resolve's sections):
    /// inlined into each of them, it was about 40 KB of machine code.
    @inline(never)
    func makeOutOfLine(
        _ binding: Binding,
        keptIn slot: any KeptSlot,
        by owner: Container?,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        _ values: Arguments?,
        _ factory: MakeCall,
        _ instance: () -> Any,
        on thread: ResolvingThread
    ) throws(ResolutionError) -> Found {
        try make(binding, keptIn: slot, by: owner, from: lookup, at: t, f, values, factory, instance, on: thread)
    }

    /// Makes an instance of `binding` (found in `slot`, registered in `owner`, or in `lookup` if
    /// that is `nil`) at position (`t`, `f`), or finds the one its scope has for this resolve.
    func make(
        _ binding: Binding,
        keptIn slot: any KeptSlot,
        by owner: Container?,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        _ values: Arguments?,
        _ factory: MakeCall,
        _ instance: () -> Any,
        on thread: ResolvingThread
    ) throws(ResolutionError) -> Found {
        // A shared instance is built from the registrations of the container that keeps it.
        let lookup = binding.isShared ? owner ?? lookup : lookup
        let isDryRun = heavy(of: t)?.isDryRun == true
        if binding.isPerResolve(inDryRun: isDryRun), let instance = graphInstance(binding, from: lookup, values, at: t)
        {
            return .instance(instance)
        }
        if binding.needsAsyncResolve || binding.isMainActor {
            try checkThread(for: binding, at: t, f, on: thread)
        }
        var creation: Creation?
        if binding.isShared, !isDryRun {
            switch try claim(binding, in: slot, at: t, f) {
            case .instance(let instance): return .instance(instance)
            case .create(let claimed): creation = claimed
            case .unregistered: return .unregistered
            case .replaced(let current):
                // From the container that keeps it: a resolve of the old one's instance began
                // there (this one's may not be shared: then its dependencies come from there too).
                return try make(
                    current, keptIn: slot, by: owner, from: lookup, at: t, f, values, factory, instance, on: thread)
            }
        }
        return try build(binding, creating: creation, from: lookup, at: t, f, values, factory, instance, on: thread)
    }

    /// Throws if `binding`, which needs an async resolve or the main actor, cannot be made here.
    @inline(never)
    private func checkThread(for binding: Binding, at t: Int, _ f: Int, on thread: ResolvingThread)
        throws(ResolutionError)
    {
        if binding.needsAsyncResolve {
            noteNeedsAsyncResolve(at: t)
            throw ResolutionError(kind: .needsAsyncResolve, service: binding.step.service, path: steps(at: t, f))
        }
        if binding.isMainActor, !thread.canRunMainActor {
            throw ResolutionError(kind: .needsMainActor, service: binding.step.service, path: steps(at: t, f))
        }
    }

    /// What a resolve at position (`t`, `f`) gets of the shared instance `binding` keeps in
    /// `slot`: the instance, once made (waiting for another resolve making it), or the creation
    /// it claims to make it (`nil`: one it does not keep).
    @inline(never)
    private func claim(_ binding: Binding, in slot: any KeptSlot, at t: Int, _ f: Int) throws(ResolutionError)
        -> Claimed
    {
        while true {
            switch slot.claim(binding, by: { heavy(t) }) {
            case .instance(let instance): return .instance(instance)
            case .create(let claimed): return .create(try accept(claimed, of: binding, at: t, f))
            case .createUnkept: return .create(nil)
            case .unfiled: return .unregistered
            case .replaced(let current):
                // One that needs an async resolve or the main actor cannot be made here (this may
                // be an async resolve's synchronous part): the old one's instance is, unkept.
                if current.needsAsyncResolve || current.isMainActor { return .create(nil) }
                return .replaced(current)
            case .busy(let busy):
                if let instance = try Waits.shared.wait(for: busy, by: heavy(t), at: frame(at: t, f)) {
                    return .instance(instance)
                }
            }
        }
    }

    /// A top-level resolve of `binding`, read from `container`'s entry, which keeps no shared
    /// instance, waits for none and needs no async resolve: the path of most resolves, which a
    /// resolve that makes only what it returns goes down and out of without a lock or a retain.
    func makeTop(
        _ binding: Binding,
        from container: Container,
        _ values: Arguments?,
        on thread: ResolvingThread,
        _ factory: MakeCall,
        _ instance: () -> Any
    ) throws(ResolutionError) -> Found {
        let t = begin(container, makesOne: true)
        do {
            let found = try build(
                binding, creating: nil, from: container, at: t, -1, values, factory, instance, on: thread)
            try finish(t, describing: binding.step.service)
            return found
        } catch {
            fail(t)
            throw error
        }
    }

    /// Makes an instance of `binding` at position (`t`, `f`) in a frame of its own: calls its
    /// factory there, keeps the instance as its scope says and queues its completions.
    private func build(
        _ binding: Binding,
        creating creation: Creation?,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        _ values: Arguments?,
        _ factory: MakeCall,
        _ instance: () -> Any,
        on thread: ResolvingThread
    ) throws(ResolutionError) -> Found {
        // Where the stack is nearly used up, the frame goes on on a helper thread before its
        // checks, not only before its factory: a cycle check may hash arguments by reflection,
        // deep in the runtime. (A main-actor factory cannot move: ``call(_:at:_:on:_:)``.)
        if !binding.isMainActor, LargerStack.isLow(thread, at: depth(at: t, f) + 1) {
            return try buildOnHelper(
                binding, creating: creation, from: lookup, at: t, f, values, factory, instance, from: thread)
        }
        return try buildHere(
            binding, creating: creation, from: lookup, at: t, f, values, factory, instance, on: thread)
    }

    /// ``build(_:creating:from:at:_:_:_:_:on:)`` on a helper thread.
    @inline(never)
    private func buildOnHelper(
        _ binding: Binding,
        creating creation: Creation?,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        _ values: Arguments?,
        _ factory: MakeCall,
        _ instance: () -> Any,
        from thread: ResolvingThread
    ) throws(ResolutionError) -> Found {
        let found = try LargerStack.run(self, from: thread, at: depth(at: t, f) + 1) { () throws(ResolutionError) in
            try ResolvingThread.with { helper throws(ResolutionError) in
                try build(binding, creating: creation, from: lookup, at: t, f, values, factory, instance, on: helper)
            }
        }
        guard let found else { throw tooDeep(binding, at: t, f) }
        return found
    }

    // The functions a frame runs in are kept small, each with its failures in functions of their
    // own: in a debug build, every temporary of a function has a slot of its own on the stack.

    private func buildHere(
        _ binding: Binding,
        creating creation: Creation?,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        _ values: Arguments?,
        _ factory: MakeCall,
        _ instance: () -> Any,
        on thread: ResolvingThread
    ) throws(ResolutionError) -> Found {
        let made = try enter(binding, from: lookup, at: t, f, creating: creation, values)
        defer { pop(made) }
        let type = try call(factory, of: binding, creating: creation, at: t, made, on: thread)
        return try self.made(instance, type, of: binding, creation: creation, from: lookup, at: t, made, values)
    }

    /// Calls `factory`, of `binding`, in frame `f`; if it fails, the creation is abandoned.
    private func call(
        _ factory: MakeCall,
        of binding: Binding,
        creating creation: Creation?,
        at t: Int,
        _ f: Int,
        on thread: ResolvingThread
    ) throws(ResolutionError) -> ObjectIdentifier {
        do {
            let resolution = Resolution(at: f, in: self)
            // `build` has checked the stack.
            return try call(binding, at: t, f, on: thread, checked: true) { try factory(binding, resolution) }
        } catch {
            throw failed(error, creating: creation, at: t, f)
        }
    }

    /// The error of frame `f` for `error`, thrown where it runs; the creation is abandoned.
    @inline(never)
    private func failed(_ error: any Error, creating creation: Creation?, at t: Int, _ f: Int) -> ResolutionError {
        let wrapped = wrap(error, at: t, f)
        abandon(creation, at: t, because: wrapped.isOwnFailure ? wrapped : nil)
        return wrapped
    }

    /// Records `claimed`, the creation of `binding`'s instance top `t` has claimed; if its
    /// resolve has ended (a task its factory did not await), abandons it instead.
    private func accept(_ claimed: Creation, of binding: Binding, at t: Int, _ f: Int) throws(ResolutionError)
        -> Creation
    {
        guard heavy(t).addClaim(claimed) else {
            abandon(claimed, at: t, because: nil)
            throw ResolutionError(kind: .resolverExpired, service: binding.step.service, path: steps(at: t, f))
        }
        return claimed
    }

    /// Keeps a new `instance`, made at frame `f` of top `t`, as its scope says, and queues its
    /// completions.
    private func made(
        _ instance: () -> Any,
        _ type: ObjectIdentifier,
        of binding: Binding,
        creation: Creation?,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        _ values: Arguments?
    ) throws(ResolutionError) -> Found {
        // A synchronous part of an async resolve that must wait unwinds: what it makes after that
        // is not kept.
        if let owner = unwindsTo(of: t), let pending = owner.pendingSuspension {
            abandon(creation, at: t, because: nil)
            throw .suspension(for: pending)
        }
        // Most registrations keep nothing and complete nothing: they are done.
        let mayComplete = !binding.completions.isEmpty || (binding.autoInjects && !binding.autoInjection.hasNone(type))
        if !mayComplete, creation == nil, !binding.isPerResolve(inDryRun: heavy(of: t)?.isDryRun == true) {
            return .made
        }
        let instance = instance()
        let completions =
            mayComplete
            ? binding.completions(
                of: instance, type, from: lookup, creation: creation, part: isSection(t) ? serial(ofTop: t) : nil)
            : []
        if binding.isPerResolve(inDryRun: heavy(of: t)?.isDryRun == true) {
            let isLast = isTopInstance(at: t, f) && completions.isEmpty
            if isSection(t) {
                if let first = heavy(t).keepGraphInstance(
                    instance, of: binding, from: lookup, values?.pointee, isLast: isLast)
                {
                    return .instance(first)  // Another task of this resolve made one first: that one is the graph's.
                }
            } else {
                keepGraphInstance(instance, of: binding, from: lookup, values, at: t, isLast: isLast)
            }
        }
        let expired = {
            ResolutionError(
                kind: .resolverExpired, service: binding.step.service, path: self.steps(at: t, self.outer(ofFrame: f)))
        }
        if let creation,
            !Waits.shared.made(
                creation, instance: instance, keeping: binding.keep(instance), completions: completions.count)
        {
            throw expired()
        }
        if !completions.isEmpty, !heavy(t).enqueue(completions) {
            abandon(creation, at: t, because: nil)
            throw expired()
        }
        return .made
    }

    /// Calls `body`, a factory or completion of `binding` at frame `f` of top `t`, on this
    /// thread — or on the main actor's for a main-actor factory, or on a helper thread's larger
    /// stack when this one's is nearly used up.
    func call<Result>(_ binding: Binding, at t: Int, _ f: Int, _ body: () throws -> Result) throws -> Result {
        try ResolvingThread.with { thread in try call(binding, at: t, f, on: thread, body) }
    }

    func call<Result>(
        _ binding: Binding,
        at t: Int,
        _ f: Int,
        on thread: ResolvingThread,
        checked: Bool = false,
        _ body: () throws -> Result
    ) throws -> Result {
        if binding.isMainActor {
            guard MainQueue.isCurrent else {
                guard let caller = thread.mainActorCaller else { return try body() }
                return try caller.run { try call(binding, at: t, f, body) }
            }
            // A main-actor factory runs where the main actor is, or not at all.
            guard !LargerStack.isExhausted(thread) else { throw tooDeep(binding, at: t, f) }
            return try body()
        }
        guard !checked, LargerStack.isLow(thread, at: depth(at: t, f)) else { return try body() }
        return try LargerStack.run(self, from: thread, at: depth(at: t, f), body)
            ?? { throw tooDeep(binding, at: t, f) }()
    }

    @inline(never)
    private func tooDeep(_ binding: Binding, at t: Int, _ f: Int) -> ResolutionError {
        ResolutionError(
            kind: .tooDeep, service: binding.step.service, path: Array(steps(at: t, f).prefix(5)),
            depth: depth(at: t, f))
    }

    // MARK: Completions

    /// Runs one queued completion of top `t`, unless its instance was handed to another resolve
    /// meanwhile.
    func run(_ pending: Resolve.Pending, at t: Int) throws(ResolutionError) {
        let resolve = heavy(t)
        guard Waits.shared.beginCompletion(pending, by: resolve) else { return }
        do {
            try complete(pending, at: t)
        } catch {
            guard Waits.shared.endCompletion(pending, by: resolve, failure: error) else {
                return  // Handed over while it ran: it runs again there.
            }
            throw error
        }
        Waits.shared.endCompletion(pending, by: resolve)
    }

    /// Queues the completions `binding` gives `instance` (of dynamic `type`), made by its factory
    /// at the position of `resolution` for another registration (a forwarding one, which converts
    /// it).
    func complete(_ instance: Any, _ type: ObjectIdentifier, as binding: Binding, for resolution: Resolution)
        throws(ResolutionError)
    {
        guard let (t, _, lookup) = position(of: resolution) else {
            throw ResolutionError(kind: .resolverExpired, service: binding.step.service)
        }
        let completions = binding.completions(
            of: instance, type, from: lookup.object, creation: nil, part: isSection(t) ? serial(ofTop: t) : nil)
        guard completions.isEmpty || heavy(t).enqueue(completions) else {
            throw ResolutionError(kind: .resolverExpired, service: binding.step.service)
        }
    }

    /// Runs the synchronous completion `pending` in a frame of its own, at the top of `t`.
    func complete(_ pending: Resolve.Pending, at t: Int) throws(ResolutionError) {
        guard case .sync(let run) = pending.run else {
            preconditionFailure("an async completion in a synchronous part")
        }
        let f = enterCompletion(pending, at: t)
        defer { pop(f) }
        do {
            try call(pending.binding, at: t, f) { try run(Resolution(at: f, in: self)) }
        } catch {
            throw wrap(error, at: t, f)
        }
    }

    // MARK: Errors and abandons

    /// Gives up `creation`, claimed by top `t`, if any: its waiters get `error`, or claim again
    /// if it is `nil`.
    func abandon(_ creation: Creation?, at t: Int, because error: ResolutionError?) {
        guard let creation else { return }
        withExtendedLifetime(Waits.shared.abandon([creation], by: heavy(t), because: error)) {}
    }

    /// `error` as a resolution error: a factory's own error wrapped with the path to frame `f`.
    func wrap(_ error: any Error, at t: Int, _ f: Int) -> ResolutionError {
        if let error = error as? ResolutionError { return error }
        let service = binding(of: f).step.service
        if error is CancellationError {
            return ResolutionError(kind: .cancelled, service: service, path: steps(at: t, outer(ofFrame: f)))
        }
        return ResolutionError(
            kind: .factoryFailed, service: service, path: steps(at: t, f), underlyingError: String(describing: error))
    }

    /// For a dry run: the registration a parent's singleton needs that only the checked child
    /// registers, with that child (``DryRunFindings/childOnly(_:from:at:)``).
    func childOnly(_ key: ServiceKey, from lookup: Container, at t: Int, _ f: Int)
        -> (Borrowed<RegistryEntry>, Container?)?
    {
        guard let findings = heavy(of: t)?.findings,
            let entry = findings.childOnly(key, from: lookup, at: frame(at: t, f))
        else { return nil }
        return (Borrowed(entry), findings.container)  // The checked container holds it.
    }

    // MARK: The trace

    /// Whether the scope of `binding` has an instance for top `t` already, for the trace.
    private func isCached(
        _ binding: Binding,
        _ slot: any KeptSlot,
        _ lookup: Container,
        _ values: Arguments?,
        _ t: Int
    ) -> Bool {
        if binding.isPerResolve(inDryRun: heavy(of: t)?.isDryRun == true) {
            return graphInstance(binding, from: lookup, values, at: t) != nil
        }
        return binding.isShared && (slot.keptInstance != nil || Waits.shared.isMade(slot, forTreeOf: heavy(t)))
    }
}

extension Resolution {
    /// The resolver of frame `f` of `stack`.
    init(at f: Int, in stack: ResolveStack) {
        self.init(position: f, serial: stack.serial(ofFrame: f))
    }

    /// The resolver at the top of top `t` of `stack`.
    init(top t: Int, in stack: ResolveStack) {
        self.init(position: -1 - t, serial: stack.serial(ofTop: t))
    }
}
