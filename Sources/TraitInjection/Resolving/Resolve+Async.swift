import Synchronization

// How an async resolve makes an instance: async factories and completions here, with the frame
// carried across `await` and into child tasks; synchronous ones as synchronous parts of the same
// resolve, sections of the thread's stack (ResolveStack+Make.swift), which unwind instead of
// blocking when they must wait.

extension Resolve {
    /// The frame whose async factory or completion the current task runs: a `resolveAsync` called
    /// there (or in a task it starts) is nested in its resolve.
    @TaskLocal static var taskFrame: Frame?

    /// The frame whose async factory or completion the current task runs, if its resolve runs
    /// (and none is read while no async resolve runs: ``Activity``).
    static var runningTaskFrame: Frame? {
        guard Activity.now.asyncResolves, let frame = taskFrame, frame.resolve.isRunning else { return nil }
        return frame
    }

    /// Runs `body`, an async resolve, counted in ``Activity``.
    static func counted<Result>(_ body: () async throws(ResolutionError) -> Result) async throws(ResolutionError)
        -> Result
    {
        Activity.asyncResolve.begin()
        defer { Activity.asyncResolve.end() }
        return try await body()
    }

    /// How the typed call site of an async resolve makes an instance: it calls the factory with
    /// its own argument types.
    @usableFromInline
    struct Factories {
        @usableFromInline let sync: (Binding, Resolution) throws -> (Any, type: ObjectIdentifier)
        @usableFromInline let async: (Binding, AsyncResolution) async throws -> Any
        /// Runs a main-actor factory there, as a synchronous part of the resolve.
        @usableFromInline let mainActor: (Binding, AsyncResolution) async throws(ResolutionError) -> Any

        @usableFromInline
        init(
            sync: @escaping (Binding, Resolution) throws -> (Any, type: ObjectIdentifier),
            async: @escaping (Binding, AsyncResolution) async throws -> Any,
            mainActor: @escaping (Binding, AsyncResolution) async throws(ResolutionError) -> Any
        ) {
            self.sync = sync
            self.async = async
            self.mainActor = mainActor
        }
    }

    /// Resolves `Service` under `name` (or `key`, a declared service's) with `arguments`, looked
    /// up from `lookup`, for the factory of `frame` (`nil` at the top): the typed side of an async
    /// resolve. `fileDefault` files a declared service's default when nothing is registered under
    /// `key` (a reset may come between that and the next look: it files and looks again), unless
    /// it has none (then it returns `false`).
    func resolveAsync<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        from lookup: Container,
        at frame: Frame?,
        key: ServiceKey? = nil,
        fileDefault: (@Sendable (Container) -> Bool)? = nil
    ) async throws(ResolutionError) -> Service {
        let values = (repeat each arguments)
        let factories = Factories(
            sync: { binding, resolution in
                let instance = try unsafeDowncast(binding.syncBox, to: FactoryBox<Service, repeat each Argument>.self)
                    .make(resolution, repeat each values)
                return (instance, ObjectIdentifier(type(of: instance)))
            },
            async: { binding, resolution in
                try await unsafeDowncast(binding.asyncBox!, to: AsyncFactoryBox<Service, repeat each Argument>.self)
                    .make(resolution, repeat each values)
            },
            mainActor: { binding, resolution throws(ResolutionError) in
                try await unsafeDowncast(binding.asyncBox!, to: MainActorHop<Service, repeat each Argument>.self)
                    .run(resolution, repeat each values)
            }
        )
        let key = key ?? ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        // One await here, the rest erased: each await of a generic async function is a piece of
        // machine code of its own, made for every service.
        if let instance = try await resolveAsync(
            key, ArgumentValues.of(repeat each arguments), from: lookup, at: frame, factories: factories,
            fileDefault: fileDefault)
        {
            return Found.cast(instance, to: Service.self)
        }
        return try await unregisteredAsync(
            Service.self, name: name, arguments: repeat each arguments, from: lookup, at: frame)
    }

    /// Resolves the registration under `key` with `values`, looked up from `lookup`, for the
    /// factory of `frame` (`nil` at the top); `nil` if nothing is registered under `key` and
    /// `fileDefault` files nothing (it files a declared service's default, and the resolve looks
    /// again).
    private func resolveAsync(
        _ key: ServiceKey,
        _ values: ArgumentValues?,
        from lookup: Container,
        at frame: Frame?,
        factories: Factories,
        fileDefault: (@Sendable (Container) -> Bool)?
    ) async throws(ResolutionError) -> Any? {
        while true {
            switch try await resolveAsync(key, values, from: lookup, at: frame, factories: factories) {
            case .instance(let instance): return instance
            case .unregistered: guard let fileDefault, fileDefault(lookup) else { return nil }
            case .made, .expired: preconditionFailure("an async resolve hands back what it made, and never expires")
            }
        }
    }

    /// Resolves the registration under `key` with `values`, looked up from `lookup`, for the
    /// factory of `frame` (`nil` at the top), suspending (never blocking) while it waits.
    func resolveAsync(
        _ key: ServiceKey,
        _ values: ArgumentValues?,
        from lookup: Container,
        at frame: Frame?,
        factories: Factories
    ) async throws(ResolutionError) -> Found {
        guard let (slot, owner) = lookup.lookUp(key) ?? childOnly(key, from: lookup, at: frame) else {
            return .unregistered
        }
        let (binding, box) = slot.read()
        if binding.isStandIn { return .unregistered }
        if !isObserved, let box { return .instance((box as! any KeptBox).value) }
        let lookup = binding.isShared ? owner : lookup
        return try await observe(binding, at: frame, isCached: isCached(binding, slot, lookup, values)) {
            () async throws(ResolutionError) in
            try await makeAsync(binding, keptIn: slot, by: owner, from: lookup, at: frame, values, factories)
        }
    }

    private func makeAsync(
        _ binding: Binding,
        keptIn slot: any KeptSlot,
        by owner: Container,
        from lookup: Container,
        at frame: Frame?,
        _ values: ArgumentValues?,
        _ factories: Factories
    ) async throws(ResolutionError) -> Found {
        if binding.isMainActor, !MainQueue.isCurrent {
            if binding.needsAsyncResolve { throw Self.mainActorCompletesAsync(binding, at: frame) }
            return .instance(try await factories.mainActor(binding, AsyncResolution(self, frame, lookup)))
        }
        guard binding.needsAsyncResolve else {
            return try await makeInSection(binding, keptIn: slot, by: owner, from: lookup, at: frame, values, factories)
        }
        if binding.isPerResolve(inDryRun: isDryRun), let instance = graphInstance(binding, from: lookup, values) {
            return .instance(instance)
        }
        var creation: Creation?
        if binding.isShared, !isDryRun {
            switch try await claim(binding, in: slot, at: frame) {
            case .instance(let instance): return .instance(instance)
            case .create(let claimed): creation = claimed
            case .unregistered: return .unregistered
            case .replaced(let current):
                // As the synchronous engine does (``ResolveStack/make(_:keptIn:by:from:at:_:_:_:_:on:)``).
                return try await makeAsync(current, keptIn: slot, by: owner, from: lookup, at: frame, values, factories)
            }
        }
        let newFrame = try enter(binding, at: frame, creating: creation, values)
        let instance: Any
        do {
            switch binding.factory {
            case .async:
                instance = try await Self.$taskFrame.withValue(newFrame) {
                    try await factories.async(binding, AsyncResolution(self, newFrame, lookup))
                }
            case .sync:
                instance = try await callInSection(binding, at: newFrame, from: lookup, factories)
            case .mainActor:
                throw Self.mainActorCompletesAsync(binding, at: frame)
            }
        } catch {
            let wrapped = Self.wrap(error, at: newFrame)
            abandon(creation, because: wrapped.isOwnFailure ? wrapped : nil)
            throw wrapped
        }
        return .instance(
            try madeAsync(instance, of: binding, creation: creation, from: lookup, at: newFrame, values) ?? instance)
    }

    /// Makes `binding`, which needs no async resolve, as a synchronous part of this resolve.
    @inline(never)
    private func makeInSection(
        _ binding: Binding,
        keptIn slot: any KeptSlot,
        by owner: Container,
        from lookup: Container,
        at frame: Frame?,
        _ values: ArgumentValues?,
        _ factories: Factories
    ) async throws(ResolutionError) -> Found {
        var made: Any?
        let found = try await synchronously(at: frame, from: lookup) { stack, t throws(ResolutionError) in
            try ArgumentValues.withPointer(to: values) { values throws(ResolutionError) in
                try stack.makeOutOfLine(
                    binding, keptIn: slot, by: owner, from: lookup, at: t, -1, values,
                    { binding, r in
                        let (instance, type) = try factories.sync(binding, r)
                        made = instance
                        return type
                    }, { made! }, on: ResolvingThread.current)
            }
        }
        if case .made = found { return .instance(made!) }
        return found
    }

    /// Calls the synchronous factory of `binding` (one with async completions) at `frame`, as a
    /// synchronous part of this resolve.
    @inline(never)
    private func callInSection(_ binding: Binding, at frame: Frame, from lookup: Container, _ factories: Factories)
        async throws(ResolutionError) -> Any
    {
        try await synchronously(at: frame, from: lookup) { stack, t throws(ResolutionError) in
            do {
                return try stack.call(binding, at: t, -1) {
                    try factories.sync(binding, Resolution(top: t, in: stack)).0
                }
            } catch {
                throw Self.wrap(error, at: frame)
            }
        }
    }

    /// What this resolve gets of the shared instance `binding` keeps in `slot`, at `frame`: the
    /// instance, once made (suspending while another resolve makes it), or the creation it claims.
    @inline(never)
    private func claim(_ binding: Binding, in slot: any KeptSlot, at frame: Frame?) async throws(ResolutionError)
        -> Claimed
    {
        while true {
            switch slot.claim(binding, by: { self }) {
            case .instance(let instance): return .instance(instance)
            case .create(let claimed):
                guard addClaim(claimed) else {
                    abandon(claimed, because: nil)
                    throw ResolutionError(kind: .resolverExpired, service: binding.step.service, path: frame.steps)
                }
                return .create(claimed)
            case .createUnkept: return .create(nil)
            case .unfiled: return .unregistered
            case .replaced(let current): return .replaced(current)
            case .busy(let busy):
                if let instance = try await Waits.shared.waitSuspending(for: busy, by: self, at: frame) {
                    return .instance(instance)
                }
            }
        }
    }

    /// The frame for making `binding` at `frame`, after the checks for a cycle and for depth;
    /// `creation` is given up if one fails.
    @inline(never)
    private func enter(
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

    /// Keeps a new `instance`, made by an async factory at `frame`, as its scope says, and
    /// queues its completions.
    ///
    /// - Returns: The instance another task of this resolve kept in the graph first, if one did.
    @inline(never)
    private func madeAsync(
        _ instance: Any,
        of binding: Binding,
        creation: Creation?,
        from lookup: Container,
        at frame: Frame,
        _ values: ArgumentValues?
    ) throws(ResolutionError) -> Any? {
        let completions = binding.completions(
            of: instance, ObjectIdentifier(type(of: instance)), from: lookup, creation: creation, part: nil)
        if binding.isPerResolve(inDryRun: isDryRun),
            let first = keepGraphInstance(instance, of: binding, from: lookup, values, isLast: false)
        {
            return first
        }
        let expired = ResolutionError(kind: .resolverExpired, service: binding.step.service, path: frame.outer.steps)
        if let creation,
            !Waits.shared.made(
                creation, instance: instance, keeping: binding.keep(instance), completions: completions.count)
        {
            throw expired
        }
        if !completions.isEmpty, !enqueue(completions) {
            abandon(creation, because: nil)
            throw expired
        }
        return nil
    }

    /// Gives up `creation`, if any: its waiters get `error`, or claim again if it is `nil`.
    func abandon(_ creation: Creation?, because error: ResolutionError?) {
        guard let creation else { return }
        withExtendedLifetime(Waits.shared.abandon([creation], by: self, because: error)) {}
    }

    /// `error` as a resolution error: a factory's own error wrapped with the path to `frame`.
    static func wrap(_ error: any Error, at frame: Frame) -> ResolutionError {
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

    /// Whether the scope of `binding` has an instance for this resolve already, for the trace.
    private func isCached(_ binding: Binding, _ slot: any KeptSlot, _ lookup: Container, _ values: ArgumentValues?)
        -> Bool
    {
        if binding.isPerResolve(inDryRun: isDryRun) { return graphInstance(binding, from: lookup, values) != nil }
        return binding.isShared && (slot.keptInstance != nil || Waits.shared.isMade(slot, forTreeOf: self))
    }

    private static func mainActorCompletesAsync(_ binding: Binding, at frame: Frame?) -> ResolutionError {
        ResolutionError(
            kind: .needsAsyncResolve, service: binding.step.service, path: frame.steps,
            underlyingError: "a main-actor factory cannot have async initCompleted closures")
    }

    /// Runs `body`, a synchronous part of this async resolve at `frame` looking up from `lookup`,
    /// until it does not have to wait: a part that must wait for a shared instance being made
    /// elsewhere unwinds (nothing it makes from then on is kept, and the transient instances it
    /// made are not completed), this task suspends until that instance can be had, and the part
    /// runs again.
    func synchronously<Result>(
        at frame: Frame?,
        from lookup: Container,
        _ body: (ResolveStack, Int) throws(ResolutionError) -> Result
    ) async throws(ResolutionError) -> Result {
        var result: Result?
        try await untilDone {
            section(at: frame, from: lookup) { stack, t throws(ResolutionError) in result = try body(stack, t) }
        } discarding: {
            result = nil
        }
        return result!
    }

    /// ``synchronously(at:from:_:)`` on the main actor.
    func synchronouslyOnMainActor<Result: Sendable>(
        at frame: Frame?,
        from lookup: Container,
        _ body: @escaping @MainActor @Sendable (ResolveStack, Int) throws(ResolutionError) -> Result
    ) async throws(ResolutionError) -> Result {
        var result: Result?
        try await untilDone {
            let (made, error, part) = await MainActor.run {
                var made: Result?
                let (error, part) = section(at: frame, from: lookup) { stack, t throws(ResolutionError) in
                    made = try body(stack, t)
                }
                return (made, error, part)
            }
            result = made
            return (error, part)
        } discarding: {
            result = nil
        }
        return result!
    }

    /// Runs a synchronous part (`run`, which returns its error, if it threw, and its serial)
    /// until it does not have to wait, suspending this task for what it waits for in between.
    /// What a run that is not used made goes (`discard`) before the wait, as the old run's
    /// transient instances do: the run again may need what it held.
    private func untilDone(
        _ run: () async -> (ResolutionError?, UInt64),
        discarding discard: () -> Void
    ) async throws(ResolutionError) {
        while true {
            let (error, part) = await run()
            guard let pending = suspension(after: error, of: part) else {
                if let error { throw error }
                return
            }
            discard()
            _ = try await Waits.shared.waitSuspending(for: pending.creation, by: self, at: pending.frame)
        }
    }

    /// Runs `body` once, as a section of this thread's stack: its error, if it threw, and the
    /// section's serial. (Not generic, and out of line: emitted once, not once per caller.)
    @inline(never)
    private func section(
        at frame: Frame?,
        from lookup: Container,
        _ body: (ResolveStack, Int) throws(ResolutionError) -> Void
    ) -> (ResolutionError?, UInt64) {
        let stack = ResolvingThread.current.stack
        let t = stack.beginSection(of: self, at: frame, from: lookup)
        defer { stack.end(t) }
        do throws(ResolutionError) {
            try body(stack, t)
            return (nil, stack.serial(ofTop: t))
        } catch {
            return (error, stack.serial(ofTop: t))
        }
    }

    /// What a synchronous part that ended with `error` (`nil` if it succeeded) must wait for
    /// before it runs again, if it unwound: the wait its error carries, or else the one recorded
    /// for the resolve (a factory caught the unwinding and went on: what it made is not used).
    /// Child tasks running parts of the same resolve share the record, so it is taken here either
    /// way.
    @inline(never)
    private func suspension(after error: ResolutionError?, of part: UInt64) -> (creation: Creation, frame: Frame?)? {
        let (recorded, dropped) = state.withLock { state -> ((creation: Creation, frame: Frame?)?, [Pending]) in
            defer { state.suspension = nil }
            guard state.suspension != nil || error?.suspension != nil else { return (nil, []) }
            // The part runs again: the transient instances it made go, with their completions.
            let dropped = state.queue.filter { $0.part == part && $0.binding.scope == .transient }
            state.queue.removeAll { $0.part == part && $0.binding.scope == .transient }
            return (state.suspension, dropped)
        }
        withExtendedLifetime(dropped) {}
        if let error, let creation = error.suspension { return (creation, error.suspendedAt) }
        return recorded
    }

    // MARK: Ending

    /// Ends an async top-level resolve that succeeded, as ``ResolveStack/finish(_:describing:)``
    /// does a synchronous one.
    func finishAsync(describing service: @autoclosure () -> String) async throws(ResolutionError) {
        var runs = 0
        while true {
            switch try next(&runs, describing: service()) {
            case .run(let pending): try await runAsync(pending)
            case .waitFor(let handedOver): _ = try await Waits.shared.waitSuspending(for: handedOver, by: self, at: nil)
            case .ended: return
            }
        }
    }

    /// Runs one queued completion, unless its instance was handed to another resolve meanwhile:
    /// a synchronous one as a synchronous part of this resolve — on the main actor for a
    /// main-actor service, as its factory ran.
    private func runAsync(_ pending: Pending) async throws(ResolutionError) {
        guard Waits.shared.beginCompletion(pending, by: self) else { return }
        do throws(ResolutionError) {
            switch pending.run {
            case .sync where pending.binding.isMainActor && !MainQueue.isCurrent:
                guard try await completeOnMainActor(pending) else { return }  // Ended there.
            case .sync:
                try await synchronously(at: entry, from: pending.lookup) { stack, t throws(ResolutionError) in
                    try stack.complete(pending, at: t)
                }
            case .async(let run):
                let frame = Frame(
                    self, pending.binding, arguments: nil, outer: entry, creation: pending.creation, isCompletion: true)
                do {
                    try await Self.$taskFrame.withValue(frame) {
                        try await run(AsyncResolution(self, frame, pending.lookup))
                    }
                } catch {
                    throw Self.wrap(error, at: frame)
                }
            }
        } catch {
            guard Waits.shared.endCompletion(pending, by: self, failure: error) else {
                return  // Handed over while it ran: it runs again there.
            }
            throw error
        }
        Waits.shared.endCompletion(pending, by: self)
    }

    /// Runs `pending`, a main-actor service's synchronous completion that
    /// ``Waits/beginCompletion(_:by:)`` began, on the main actor, and ends it there when it
    /// succeeds: main-actor code queued behind it may need the instance as soon as it returns.
    /// `false` if it ran and ended (or had ended: a run again after another task's wait); `true`
    /// if it ran and is still to end.
    ///
    /// Until it has ended, a synchronous resolve of the instance on the main actor throws
    /// `deadlock` (an async resolve is creating it), as it does while a factory runs.
    private func completeOnMainActor(_ pending: Pending) async throws(ResolutionError) -> Bool {
        // The completion crosses unchecked: this task waits while the main actor runs it, and
        // nothing else holds it.
        let pending = UncheckedBox(pending)
        return try await synchronouslyOnMainActor(at: entry, from: pending.value.lookup) {
            @MainActor stack, t throws(ResolutionError) in
            guard Waits.shared.isStillRunning(pending.value, by: self) else { return false }
            try stack.complete(pending.value, at: t)
            // Unless it runs again after a wait (a factory caught the unwinding and went on).
            guard self.pendingSuspension == nil else { return true }
            Waits.shared.endCompletion(pending.value, by: self)
            return false
        }
    }
}
