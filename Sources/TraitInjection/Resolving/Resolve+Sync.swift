// How a resolve makes an instance synchronously: the engine's steps, shared with async resolves,
// which run every synchronous factory and completion through here.

extension Resolve {
    /// Resolves `Service` under `name` with `arguments`, looked up from `lookup`, for the factory
    /// of `frame` (`nil` at the top).
    func resolve<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        from lookup: Container,
        at frame: Frame?
    ) throws(ResolutionError) -> Service {
        if isAsync, let pending = state.withLock(\.suspension) { throw .suspension(for: pending) }
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        guard let (slot, owner) = lookup.lookUp(key) else {
            return try resolveUnregistered(Service.self, name: name, arguments: repeat each arguments, from: lookup, at: frame)
        }
        let (found, kept) = slot.read()
        // Filed under the key of `Service` and the argument types.
        let binding = unsafeDowncast(found!, to: Binding<Service>.self)
        guard isObserved else {
            if case .strong(let box) = kept { return unsafeDowncast(box, to: Kept<Service>.self).instance }
            return try make(binding, keptIn: slot, by: owner, from: lookup, at: frame, arguments: repeat each arguments)
        }
        let instanceLookup = binding.scope.isShared ? owner : lookup
        return try observe(binding, keptIn: slot, from: instanceLookup, at: frame, repeat each arguments, making: {
            () throws(ResolutionError) in
            try make(binding, keptIn: slot, by: owner, from: lookup, at: frame, arguments: repeat each arguments)
        })
    }

    /// Makes an instance of `binding` (found in `slot`, registered in `owner`), or finds the one
    /// its scope has for this resolve.
    func make<Service, each Argument>(
        _ binding: Binding<Service>,
        keptIn slot: any KeptSlot,
        by owner: Container,
        from lookup: Container,
        at frame: Frame?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        // A shared instance is built from the registrations of the container that keeps it.
        let lookup = binding.scope.isShared ? owner : lookup
        if binding.scope.isPerResolve(inDryRun: isDryRun),
            let instance = graphInstance(binding, from: lookup, repeat each arguments)
        {
            return instance
        }
        if binding.needsAsyncResolve {
            throw ResolutionError(kind: .needsAsyncResolve, service: binding.step.service, path: frame.steps)
        }
        if binding.isMainActor, !ResolvingThread.current.canRunMainActor {
            throw ResolutionError(kind: .needsMainActor, service: binding.step.service, path: frame.steps)
        }
        var creation: Creation?
        if binding.scope.isShared, !isDryRun {
            claiming: while true {
                switch slot.claim(binding, by: self) {
                case .instance(let instance): return instance as! Service
                case .create(let claimed):
                    creation = claimed
                    guard addClaim(claimed) else {
                        abandon(claimed, because: nil)
                        throw ResolutionError(kind: .resolverExpired, service: binding.step.service, path: frame.steps)
                    }
                case .createUnkept: break
                case .busy(let busy):
                    guard let instance = try Waits.shared.wait(for: busy, by: self, at: frame) else { continue }
                    return instance as! Service
                }
                break claiming
            }
        }
        let newFrame: Frame
        do throws(ResolutionError) {
            newFrame = try enter(binding, at: frame, creating: creation, repeat each arguments)
        } catch {
            abandon(creation, because: nil)
            throw error
        }
        let instance: Service
        do {
            instance = try call(binding, at: newFrame) { () throws -> Service in
                switch binding.factory {
                case .sync(let box), .mainActor(let box, _):
                    // Filed under the argument types: the box has them.
                    let factory = unsafeDowncast(box, to: FactoryBox<Service, repeat each Argument>.self)
                    return try factory.make(Resolution(self, newFrame, lookup), repeat each arguments)
                case .async:
                    preconditionFailure("an async factory reached a synchronous resolve")
                }
            }
        } catch {
            let wrapped = wrap(error, at: newFrame)
            abandon(creation, because: wrapped.isOwnFailure ? wrapped : nil)
            throw wrapped
        }
        return try made(instance, of: binding, creation: creation, from: lookup, at: newFrame, repeat each arguments)
    }

    /// The frame for making `binding` at `frame`, after the checks for a cycle and for depth.
    func enter<Service, each Argument>(
        _ binding: Binding<Service>,
        at frame: Frame?,
        creating creation: Creation?,
        _ arguments: repeat each Argument
    ) throws(ResolutionError) -> Frame {
        let (cycle, recurs) = frame?.cycle(back: binding, repeat each arguments) ?? (nil, false)
        if let cycle {
            throw ResolutionError(kind: .cycle, service: binding.step.service, path: cycle)
        }
        let depth = frame?.depth ?? 0
        if depth >= Self.maximumDepth {
            throw ResolutionError(
                kind: .tooDeep, service: binding.step.service, path: Array(frame.steps.prefix(5)), depth: depth + 1)
        }
        let values = binding.takesArguments ? ArgumentValues(repeat each arguments, hashed: recurs) : nil
        let newFrame = Frame(self, binding, arguments: values, outer: frame, creation: creation)
        if let creation { Waits.shared.creating(creation, at: newFrame) }
        return newFrame
    }

    /// Keeps a new `instance` as its scope says, and queues its completions.
    func made<Service, each Argument>(
        _ instance: Service,
        of binding: Binding<Service>,
        creation: Creation?,
        from lookup: Container,
        at frame: Frame,
        _ arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        // A synchronous part of an async resolve that must wait unwinds: what it makes after that
        // is not kept.
        if isAsync, let pending = state.withLock(\.suspension) {
            abandon(creation, because: nil)
            throw .suspension(for: pending)
        }
        if binding.scope.isPerResolve(inDryRun: isDryRun),
            let first = keepGraphInstance(instance, of: binding, from: lookup, repeat each arguments)
        {
            return first  // Another task of this resolve made one first: that one is the graph's.
        }
        var completions: [Pending] = []
        if binding.autoInjects, let injection = binding.autoInjection.injection(into: instance, of: binding) {
            completions.append(Pending(binding: binding, lookup: lookup, creation: creation, run: .sync { try injection($0, instance) }))
        }
        for completion in binding.completions {
            let run: Pending.Run =
                switch completion {
                case .sync(let completion): .sync { try completion($0, instance) }
                case .async(let completion): .async { try await completion($0, instance) }
                }
            completions.append(Pending(binding: binding, lookup: lookup, creation: creation, run: run))
        }
        if let creation,
            !Waits.shared.made(
                creation, instance: instance, keeping: binding.scope.keeping(instance), completions: completions.count)
        {
            throw ResolutionError(kind: .resolverExpired, service: binding.step.service, path: frame.outer.steps)
        }
        for completion in completions where !enqueue(completion) {
            abandon(creation, because: nil)
            throw ResolutionError(kind: .resolverExpired, service: binding.step.service, path: frame.outer.steps)
        }
        return instance
    }

    /// Calls `body`, a factory or completion of `binding` at `frame`, on this thread — or on the
    /// main actor's for a main-actor factory, or on a helper thread's larger stack when this one's
    /// is nearly used up — with `frame` as this thread's innermost.
    func call<Result>(_ binding: any AnyBinding, at frame: Frame, _ body: () throws -> Result) throws -> Result {
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
        while true {
            var runs = 0
            while let next = nextPending() {
                runs += 1
                guard runs <= Self.completionLimit else {
                    throw Self.tooManyCompletions(next.binding, path: entry.steps + [next.binding.step])
                }
                try run(next)
            }
            if let handedOver = try Waits.shared.unsettledYield(of: self) {
                _ = try Waits.shared.wait(for: handedOver, by: self, at: nil)
            } else if try end(describing: service()) {
                return
            }
        }
    }

    /// Runs one queued completion, unless its instance was handed to another resolve meanwhile.
    private func run(_ pending: Pending) throws(ResolutionError) {
        if let creation = pending.creation, !Waits.shared.beginCompletion(creation, pending, by: self) { return }
        let frame = Frame(self, pending.binding, arguments: nil, outer: entry, creation: pending.creation, isCompletion: true)
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
            kind: .factoryFailed,
            service: frame.binding.step.service,
            path: frame.steps,
            underlyingError: String(describing: error)
        )
    }

    /// The most services a chain of dependencies may nest; a deeper one throws `.tooDeep`.
    static var maximumDepth: Int { 10_000 }
}
