// How a resolve makes an instance synchronously: the engine's steps, on erased instances,
// shared with async resolves, which run every synchronous factory and completion through here.
// The typed call sites (Container.resolve, Resolution.resolve) call the factory and cast.

extension Resolve {
    /// Resolves the registration under `key` with `values`, looked up from `lookup`, for the
    /// factory of `frame` (`nil` at the top); `factory` calls a synchronous factory with the
    /// call site's types.
    @usableFromInline
    func resolve(
        _ key: ServiceKey,
        _ values: ArgumentValues?,
        from lookup: Container,
        at frame: Frame?,
        factory: (Binding, Resolution) throws -> Any
    ) throws(ResolutionError) -> Found {
        if isAsync, let pending = pendingSuspension { throw .suspension(for: pending) }
        guard let (slot, owner) = lookup.lookUp(key) ?? childOnly(key, from: lookup, at: frame) else {
            return .unregistered
        }
        let (found, kept) = slot.read()
        let binding = found!
        if !isObserved, case .strong(let box) = kept { return .kept(box) }
        return try observe(binding, keptIn: slot, from: binding.isShared ? owner : lookup, at: frame, values) {
            () throws(ResolutionError) in
            try make(binding, keptIn: slot, by: owner, from: lookup, at: frame, values, factory)
        }
    }

    /// Makes an instance of `binding` (found in `slot`, registered in `owner`), or finds the one
    /// its scope has for this resolve.
    func make(
        _ binding: Binding,
        keptIn slot: any KeptSlot,
        by owner: Container,
        from lookup: Container,
        at frame: Frame?,
        _ values: ArgumentValues?,
        _ factory: (Binding, Resolution) throws -> Any
    ) throws(ResolutionError) -> Found {
        // A shared instance is built from the registrations of the container that keeps it.
        let lookup = binding.isShared ? owner : lookup
        if binding.isPerResolve(inDryRun: isDryRun), let instance = graphInstance(binding, from: lookup, values) {
            return .instance(instance)
        }
        if binding.needsAsyncResolve {
            throw ResolutionError(kind: .needsAsyncResolve, service: binding.step.service, path: frame.steps)
        }
        if binding.isMainActor, !ResolvingThread.current.canRunMainActor {
            throw ResolutionError(kind: .needsMainActor, service: binding.step.service, path: frame.steps)
        }
        var creation: Creation?
        if binding.isShared, !isDryRun {
            claiming: while true {
                switch slot.claim(binding, by: self) {
                case .instance(let instance): return .instance(instance)
                case .create(let claimed):
                    creation = try accept(claimed, of: binding, at: frame)
                    break claiming
                case .createUnkept: break claiming
                case .busy(let busy):
                    if let instance = try Waits.shared.wait(for: busy, by: self, at: frame) {
                        return .instance(instance)
                    }
                }
            }
        }
        let newFrame = try enter(binding, at: frame, creating: creation, values)
        let instance: Any
        do {
            instance = try call(binding, at: newFrame) { try factory(binding, Resolution(self, newFrame, lookup)) }
        } catch {
            let wrapped = wrap(error, at: newFrame)
            abandon(creation, because: wrapped.isOwnFailure ? wrapped : nil)
            throw wrapped
        }
        return try made(instance, of: binding, creation: creation, from: lookup, at: newFrame, values)
    }

    /// Records `claimed`, the creation of `binding`'s instance this resolve has claimed; if the
    /// resolve has ended (a task its factory did not await), abandons it instead.
    func accept(_ claimed: Creation, of binding: Binding, at frame: Frame?) throws(ResolutionError) -> Creation {
        guard addClaim(claimed) else {
            abandon(claimed, because: nil)
            throw ResolutionError(kind: .resolverExpired, service: binding.step.service, path: frame.steps)
        }
        return claimed
    }

    /// The frame for making `binding` at `frame`, after the checks for a cycle and for depth;
    /// `creation` is given up if one fails.
    func enter(
        _ binding: Binding,
        at frame: Frame?,
        creating creation: Creation?,
        _ values: ArgumentValues?
    ) throws(ResolutionError) -> Frame {
        let (cycle, recurs) = frame?.cycle(back: binding, values) ?? (nil, false)
        let depth = frame?.depth ?? 0
        if let cycle {
            abandon(creation, because: nil)
            throw ResolutionError(kind: .cycle, service: binding.step.service, path: cycle)
        }
        if depth >= Self.maximumDepth {
            abandon(creation, because: nil)
            throw ResolutionError(
                kind: .tooDeep, service: binding.step.service, path: Array(frame.steps.prefix(5)), depth: depth + 1)
        }
        let newFrame = Frame(
            self, binding, arguments: recurs ? values?.hashed : values, outer: frame, creation: creation)
        if let creation { Waits.shared.creating(creation, at: newFrame) }
        return newFrame
    }

    /// Keeps a new `instance` as its scope says, and queues its completions.
    func made(
        _ instance: Any,
        of binding: Binding,
        creation: Creation?,
        from lookup: Container,
        at frame: Frame,
        _ values: ArgumentValues?
    ) throws(ResolutionError) -> Found {
        // A synchronous part of an async resolve that must wait unwinds: what it makes after that
        // is not kept.
        if isAsync, let pending = pendingSuspension {
            abandon(creation, because: nil)
            throw .suspension(for: pending)
        }
        var completions: [Pending] = []
        if binding.autoInjects, let injection = binding.autoInjection.injection(into: instance, of: binding) {
            completions.append(Pending(binding: binding, lookup: lookup, creation: creation, run: .sync(injection)))
        }
        for completion in binding.completions {
            let run: Pending.Run =
                switch completion {
                case .sync(let completion): .sync { try completion($0, instance) }
                case .async(let completion): .async { try await completion($0, instance) }
                }
            completions.append(Pending(binding: binding, lookup: lookup, creation: creation, run: run))
        }
        if binding.isPerResolve(inDryRun: isDryRun),
            let first = keepGraphInstance(
                instance, of: binding, from: lookup, values,
                isLast: makesOne && frame.outer === entry && completions.isEmpty)
        {
            return .instance(first)  // Another task of this resolve made one first: that one is the graph's.
        }
        if let creation,
            !Waits.shared.made(
                creation, instance: instance, keeping: binding.keep(instance), completions: completions.count)
        {
            throw ResolutionError(kind: .resolverExpired, service: binding.step.service, path: frame.outer.steps)
        }
        if !completions.isEmpty, !enqueue(completions) {
            abandon(creation, because: nil)
            throw ResolutionError(kind: .resolverExpired, service: binding.step.service, path: frame.outer.steps)
        }
        return .made
    }

    /// Calls `body`, a factory or completion of `binding` at `frame`, on this thread — or on the
    /// main actor's for a main-actor factory, or on a helper thread's larger stack when this one's
    /// is nearly used up — with `frame` as this thread's innermost.
    func call<Result>(_ binding: Binding, at frame: Frame, _ body: () throws -> Result) throws -> Result {
        let thread = ResolvingThread.current
        let onMainActor = binding.isMainActor && MainQueue.isCurrent
        if binding.isMainActor, !onMainActor, let caller = thread.mainActorCaller {
            return try caller.run { try call(binding, at: frame, body) }
        }
        let outer = thread.innermost
        thread.innermost = frame
        defer { thread.innermost = outer }
        // A main-actor factory runs where the main actor is, however little stack is left there.
        guard LargerStack.isLow(thread), !onMainActor else { return try body() }
        return try LargerStack.run(at: frame, from: thread, body)
    }

    /// Gives up `creation`, if any: its waiters get `error`, or claim again if it is `nil`.
    func abandon(_ creation: Creation?, because error: ResolutionError?) {
        guard let creation else { return }
        withExtendedLifetime(Waits.shared.abandon([creation], by: self, because: error)) {}
    }

    // MARK: Ending

    /// Ends a synchronous top-level resolve that succeeded: runs its completions (and those they
    /// queue), waits for what it handed over to be published, then publishes what it made.
    func finish(describing service: @autoclosure () -> String) throws(ResolutionError) {
        var runs = 0
        while true {
            switch try next(&runs, describing: service()) {
            case .run(let pending): try run(pending)
            case .waitFor(let handedOver): _ = try Waits.shared.wait(for: handedOver, by: self, at: nil)
            case .ended: return
            }
        }
    }

    /// Runs one queued completion, unless its instance was handed to another resolve meanwhile.
    private func run(_ pending: Pending) throws(ResolutionError) {
        if let creation = pending.creation, !Waits.shared.beginCompletion(creation, pending, by: self) { return }
        let frame = Frame(
            self, pending.binding, arguments: nil, outer: entry, creation: pending.creation, isCompletion: true)
        do {
            guard case .sync(let run) = pending.run else {
                preconditionFailure("an async completion reached a synchronous resolve")
            }
            try call(pending.binding, at: frame) { try run(Resolution(self, frame, pending.lookup)) }
        } catch {
            if let creation = pending.creation, !Waits.shared.endCompletion(creation, by: self, succeeded: false) {
                return  // Handed over while it ran: it runs again there.
            }
            throw wrap(error, at: frame)
        }
        if let creation = pending.creation { _ = Waits.shared.endCompletion(creation, by: self, succeeded: true) }
    }

    /// `error` as a resolution error: a factory's own error wrapped with the path to `frame`.
    func wrap(_ error: any Error, at frame: Frame) -> ResolutionError {
        if let error = error as? ResolutionError { return error }
        if error is CancellationError {
            return ResolutionError(kind: .cancelled, service: frame.binding.step.service, path: frame.outer.steps)
        }
        return ResolutionError(
            kind: .factoryFailed, service: frame.binding.step.service, path: frame.steps,
            underlyingError: String(describing: error))
    }

    /// For a dry run: the registration a parent's singleton needs that only the checked child
    /// registers, with that child (a lifetime problem, recorded; the dry run goes on with it).
    func childOnly(_ key: ServiceKey, from lookup: Container, at frame: Frame?) -> (RegistryEntry, Container)? {
        guard let findings, let entry = findings.childOnly(key, from: lookup, at: frame) else { return nil }
        return (entry, findings.container)
    }

    /// The most services a chain of dependencies may nest; a deeper one throws `.tooDeep`.
    static var maximumDepth: Int { 10_000 }
}
