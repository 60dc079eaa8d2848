// How an async resolve makes an instance: async factories and completions here, with the frame
// carried across `await` and into child tasks; synchronous ones as synchronous parts of the same
// resolve (Resolve+Sync.swift), which unwind instead of blocking when they must wait.

extension Resolve {
    /// The frame whose async factory or completion the current task runs: a `resolveAsync` called
    /// there (or in a task it starts) is nested in its resolve.
    @TaskLocal static var taskFrame: Frame?

    /// How the typed call site of an async resolve makes an instance: it calls the factory with
    /// its own argument types.
    @usableFromInline
    struct Factories {
        @usableFromInline let sync: (Binding, Resolution) throws -> Any
        @usableFromInline let async: (Binding, AsyncResolution) async throws -> Any
        /// Runs a main-actor factory there, as a synchronous part of the resolve.
        @usableFromInline let mainActor: (Binding, AsyncResolution) async throws(ResolutionError) -> Any

        @usableFromInline
        init(
            sync: @escaping (Binding, Resolution) throws -> Any,
            async: @escaping (Binding, AsyncResolution) async throws -> Any,
            mainActor: @escaping (Binding, AsyncResolution) async throws(ResolutionError) -> Any
        ) {
            self.sync = sync
            self.async = async
            self.mainActor = mainActor
        }
    }

    /// Resolves `Service` under `name` with `arguments`, looked up from `lookup`, for the factory
    /// of `frame` (`nil` at the top): the typed side of an async resolve.
    func resolveAsync<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        from lookup: Container,
        at frame: Frame?
    ) async throws(ResolutionError) -> Service {
        let values = (repeat each arguments)
        let factories = Factories(
            sync: { binding, resolution in
                try unsafeDowncast(binding.syncBox, to: FactoryBox<Service, repeat each Argument>.self)
                    .make(resolution, repeat each values)
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
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        switch try await resolveAsync(
            key, ArgumentValues.of(repeat each arguments), from: lookup, at: frame, factories: factories)
        {
        case .kept(let box): return unsafeDowncast(box, to: Kept<Service>.self).instance
        case .instance(let instance): return instance as! Service
        case .made: preconditionFailure("an async resolve hands back what it made")
        case .unregistered:
            return try await unregisteredAsync(
                Service.self, name: name, arguments: repeat each arguments, from: lookup, at: frame)
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
        let (found, kept) = slot.read()
        let binding = found!
        if !isObserved, case .strong(let box) = kept { return .kept(box) }
        return try await observe(binding, keptIn: slot, from: binding.isShared ? owner : lookup, at: frame, values) {
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
            var made: Any?
            let found = try await synchronously { () throws(ResolutionError) in
                try make(binding, keptIn: slot, by: owner, from: lookup, at: frame, values) { binding, resolution in
                    let instance = try factories.sync(binding, resolution)
                    made = instance
                    return instance
                }
            }
            if case .made = found { return .instance(made!) }
            return found
        }
        let lookup = binding.isShared ? owner : lookup
        if binding.isPerResolve(inDryRun: isDryRun), let instance = graphInstance(binding, from: lookup, values) {
            return .instance(instance)
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
                    if let instance = try await Waits.shared.waitSuspending(for: busy, by: self, at: frame) {
                        return .instance(instance)
                    }
                }
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
                // A synchronous factory with async completions.
                instance = try await synchronously { () throws(ResolutionError) in
                    do {
                        return try call(binding, at: newFrame) {
                            try factories.sync(binding, Resolution(self, newFrame, lookup))
                        }
                    } catch {
                        throw wrap(error, at: newFrame)
                    }
                }
            case .mainActor:
                throw Self.mainActorCompletesAsync(binding, at: frame)
            }
        } catch {
            let wrapped = wrap(error, at: newFrame)
            abandon(creation, because: wrapped.isOwnFailure ? wrapped : nil)
            throw wrapped
        }
        let found = try made(instance, of: binding, creation: creation, from: lookup, at: newFrame, values)
        if case .made = found { return .instance(instance) }
        return found
    }

    private static func mainActorCompletesAsync(_ binding: Binding, at frame: Frame?) -> ResolutionError {
        ResolutionError(
            kind: .needsAsyncResolve, service: binding.step.service, path: frame.steps,
            underlyingError: "a main-actor factory cannot have async initCompleted closures")
    }

    /// Runs `body`, a synchronous part of this async resolve, until it does not have to wait: a
    /// part that must wait for a shared instance being made elsewhere unwinds (nothing it makes
    /// from then on is kept), this task suspends until that instance can be had, and the part
    /// runs again.
    func synchronously<Result>(_ body: () throws(ResolutionError) -> Result) async throws(ResolutionError) -> Result {
        while true {
            let outcome: Swift.Result<Result, ResolutionError>
            do throws(ResolutionError) { outcome = .success(try body()) } catch { outcome = .failure(error) }
            guard let pending = suspension(after: outcome) else { return try outcome.get() }
            _ = try await Waits.shared.waitSuspending(for: pending.creation, by: self, at: pending.frame)
        }
    }

    /// ``synchronously(_:)`` on the main actor.
    func synchronouslyOnMainActor<Result: Sendable>(
        _ body: @escaping @MainActor @Sendable () throws(ResolutionError) -> Result
    ) async throws(ResolutionError) -> Result {
        while true {
            let outcome = await MainActor.run { () -> Swift.Result<Result, ResolutionError> in
                do throws(ResolutionError) { return .success(try body()) } catch { return .failure(error) }
            }
            guard let pending = suspension(after: outcome) else { return try outcome.get() }
            _ = try await Waits.shared.waitSuspending(for: pending.creation, by: self, at: pending.frame)
        }
    }

    /// What a synchronous part that ended with `outcome` must wait for before it runs again, if
    /// it unwound: the wait its error carries, or else the one recorded for the resolve (a factory
    /// caught the unwinding and went on: what it made is not used). Child tasks running parts of
    /// the same resolve share the record, so it is taken here either way.
    private func suspension<Result>(after outcome: Swift.Result<Result, ResolutionError>)
        -> (creation: Creation, frame: Frame?)?
    {
        let recorded = state.withLock { state in
            defer { state.suspension = nil }
            return state.suspension
        }
        if case .failure(let error) = outcome, let creation = error.suspension {
            return (creation, error.suspendedAt)
        }
        return recorded
    }

    // MARK: Ending

    /// Ends an async top-level resolve that succeeded, as ``finish()`` does a synchronous one.
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

    /// Runs one queued completion, unless its instance was handed to another resolve meanwhile.
    private func runAsync(_ pending: Pending) async throws(ResolutionError) {
        if let creation = pending.creation, !Waits.shared.beginCompletion(creation, pending, by: self) { return }
        let frame = Frame(
            self, pending.binding, arguments: nil, outer: entry, creation: pending.creation, isCompletion: true)
        do {
            switch pending.run {
            case .sync(let run):
                try await synchronously { () throws(ResolutionError) in
                    do {
                        try call(pending.binding, at: frame) { try run(Resolution(self, frame, pending.lookup)) }
                    } catch {
                        throw wrap(error, at: frame)
                    }
                }
            case .async(let run):
                try await Self.$taskFrame.withValue(frame) {
                    try await run(AsyncResolution(self, frame, pending.lookup))
                }
            }
        } catch {
            if let creation = pending.creation, !Waits.shared.endCompletion(creation, by: self, succeeded: false) {
                return  // Handed over while it ran: it runs again there.
            }
            throw wrap(error, at: frame)
        }
        if let creation = pending.creation { _ = Waits.shared.endCompletion(creation, by: self, succeeded: true) }
    }
}
