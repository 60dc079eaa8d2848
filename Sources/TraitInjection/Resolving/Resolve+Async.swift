// How an async resolve makes an instance: async factories and completions here, with the frame
// carried across `await` and into child tasks; synchronous ones as synchronous parts of the same
// resolve (Resolve+Sync.swift), which unwind instead of blocking when they must wait.

extension Resolve {
    /// The frame whose async factory or completion the current task runs: a `resolveAsync` called
    /// there (or in a task it starts) is nested in its resolve.
    @TaskLocal static var taskFrame: Frame?

    /// Resolves `Service` under `name` with `arguments`, looked up from `lookup`, for the factory
    /// of `frame` (`nil` at the top), suspending (never blocking) while it waits.
    func resolveAsync<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        from lookup: Container,
        at frame: Frame?
    ) async throws(ResolutionError) -> Service {
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        guard let (slot, owner) = lookup.lookUp(key) else {
            if let optional = Service.self as? any OptionalService.Type {
                let resolution = AsyncResolution(self, frame, lookup)
                return try await optional.resolveWrapped(in: resolution, name: name, arguments: repeat each arguments)
                    as! Service
            }
            if let findings, let entry = findings.childOnly(key, from: lookup, at: frame) {
                let binding = unsafeDowncast(entry.read().binding!, to: Binding<Service>.self)
                findings.check(binding, ancestors: frame)
                let container = findings.container
                return try await makeAsync(
                    binding, keptIn: entry, by: container, from: container, at: frame, arguments: repeat each arguments)
            }
            return try resolveUnregistered(Service.self, name: name, arguments: repeat each arguments, from: lookup, at: frame)
        }
        let (found, kept) = slot.read()
        // Filed under the key of `Service` and the argument types.
        let binding = unsafeDowncast(found!, to: Binding<Service>.self)
        if !isObserved, case .strong(let box) = kept { return unsafeDowncast(box, to: Kept<Service>.self).instance }
        let instanceLookup = binding.scope.isShared ? owner : lookup
        return try await observe(binding, keptIn: slot, from: instanceLookup, at: frame, repeat each arguments, making: {
            () async throws(ResolutionError) in
            try await makeAsync(binding, keptIn: slot, by: owner, from: lookup, at: frame, arguments: repeat each arguments)
        })
    }

    private func makeAsync<Service, each Argument>(
        _ binding: Binding<Service>,
        keptIn slot: any KeptSlot,
        by owner: Container,
        from lookup: Container,
        at frame: Frame?,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Service {
        if binding.isMainActor, !MainQueue.isCurrent, case .mainActor(_, let hop) = binding.factory {
            // Made where `Service` and the arguments are `Sendable`, with the same argument types.
            let hop = unsafeDowncast(hop, to: MainActorHop<Service, repeat each Argument>.self)
            if binding.needsAsyncResolve {
                throw ResolutionError(
                    kind: .needsAsyncResolve, service: binding.step.service, path: frame.steps,
                    underlyingError: "a main-actor factory cannot have async initCompleted closures")
            }
            return try await hop.run(AsyncResolution(self, frame, lookup), repeat each arguments)
        }
        guard binding.needsAsyncResolve else {
            return try await synchronously { () throws(ResolutionError) in
                try make(binding, keptIn: slot, by: owner, from: lookup, at: frame, arguments: repeat each arguments)
            }
        }
        let lookup = binding.scope.isShared ? owner : lookup
        if binding.scope.isPerResolve(inDryRun: isDryRun),
            let instance = graphInstance(binding, from: lookup, repeat each arguments)
        {
            return instance
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
                    guard let instance = try await Waits.shared.waitSuspending(for: busy, by: self, at: frame) else {
                        continue
                    }
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
            switch binding.factory {
            case .async(let box):
                let factory = unsafeDowncast(box, to: AsyncFactoryBox<Service, repeat each Argument>.self)
                instance = try await Self.$taskFrame.withValue(newFrame) {
                    try await factory.make(AsyncResolution(self, newFrame, lookup), repeat each arguments)
                }
            case .sync(let box):
                // A synchronous factory with async completions.
                let factory = unsafeDowncast(box, to: FactoryBox<Service, repeat each Argument>.self)
                instance = try await synchronously { () throws(ResolutionError) in
                    do {
                        return try call(binding, at: newFrame) {
                            try factory.make(Resolution(self, newFrame, lookup), repeat each arguments)
                        }
                    } catch {
                        throw wrap(error, at: newFrame)
                    }
                }
            case .mainActor:
                throw ResolutionError(
                    kind: .needsAsyncResolve, service: binding.step.service, path: frame.steps,
                    underlyingError: "a main-actor factory cannot have async initCompleted closures")
            }
        } catch {
            let wrapped = wrap(error, at: newFrame)
            abandon(creation, because: wrapped.isOwnFailure ? wrapped : nil)
            throw wrapped
        }
        return try made(instance, of: binding, creation: creation, from: lookup, at: newFrame, repeat each arguments)
    }

    /// Runs `body`, a synchronous part of this async resolve, until it does not have to wait: a
    /// part that must wait for a shared instance being made elsewhere unwinds (nothing it makes
    /// from then on is kept), this task suspends until that instance can be had, and the part
    /// runs again.
    func synchronously<Result>(_ body: () throws(ResolutionError) -> Result) async throws(ResolutionError) -> Result {
        while true {
            let result: Result
            do {
                result = try body()
            } catch {
                guard let pending = takeSuspension() else { throw error }
                _ = try await Waits.shared.waitSuspending(for: pending, by: self, at: nil)
                continue
            }
            // A factory may have caught the unwinding and gone on: what it made is not used.
            guard let pending = takeSuspension() else { return result }
            _ = try await Waits.shared.waitSuspending(for: pending, by: self, at: nil)
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
            guard let pending = takeSuspension() else { return try outcome.get() }
            _ = try await Waits.shared.waitSuspending(for: pending, by: self, at: nil)
        }
    }

    private func takeSuspension() -> Creation? {
        state.withLock { state in
            defer { state.suspension = nil }
            return state.suspension
        }
    }

    // MARK: Ending

    /// Ends an async top-level resolve that succeeded, as ``finish(describing:)`` does a
    /// synchronous one.
    func finishAsync(describing service: @autoclosure () -> String) async throws(ResolutionError) {
        while true {
            var runs = 0
            while let next = nextPending() {
                runs += 1
                guard runs <= Self.completionLimit else {
                    throw Self.tooManyCompletions(next.binding, path: entry.steps + [next.binding.step])
                }
                try await runAsync(next)
            }
            if let handedOver = try Waits.shared.unsettledYield(of: self) {
                _ = try await Waits.shared.waitSuspending(for: handedOver, by: self, at: nil)
            } else if try end(describing: service()) {
                return
            }
        }
    }

    /// Runs one queued completion, unless its instance was handed to another resolve meanwhile.
    private func runAsync(_ pending: Pending) async throws(ResolutionError) {
        if let creation = pending.creation, !Waits.shared.beginCompletion(creation, pending, by: self) { return }
        let frame = Frame(self, pending.binding, arguments: nil, outer: entry, creation: pending.creation, isCompletion: true)
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
                try await Self.$taskFrame.withValue(frame) { try await run(AsyncResolution(self, frame, pending.lookup)) }
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
