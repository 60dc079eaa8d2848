// How an async resolve makes an instance of a registration: async ones here, with their path,
// graph and shared instances; synchronous ones as a synchronous resolve of their own that starts
// from the async resolve's graph.

extension AsyncResolution {
    /// Resolves `registration`, found from `container` under the key of `Service` and the
    /// argument types.
    func resolve<Service, each Argument>(
        _ registration: Registration<Service>,
        from container: Container,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Service {
        guard registration.needsAsyncResolve else {
            return try await resolveSynchronously(registration, from: container, arguments: repeat each arguments)
        }
        state.hold(registration)
        let scope = registration.scope
        // An instance already in the graph closes a cycle through `initCompleted`: looked up
        // before the path is searched for one, as a synchronous resolve does.
        let graphKey =
            scope == .graph && !registration.takesArguments ? graphKey(of: registration, from: container) : nil
        if let graphKey, let cached = state.graphInstance(graphKey, as: Service.self) { return cached }
        let argumentHash =
            registration.takesArguments ? ArgumentKey(registration, repeat each arguments)?.hashValue : nil
        if let cycle = frame?.cycle(back: registration, argumentHash: argumentHash) {
            throw ResolutionError(kind: .cycle, service: registration.step.service, path: cycle)
        }
        if (frame?.depth ?? 0) >= ResolutionContext.maximumDepth {
            throw ResolutionError(
                kind: .tooDeep,
                service: registration.step.service,
                path: Array((frame?.steps ?? []).prefix(5)),
                depth: (frame?.depth ?? 0) + 1
            )
        }

        var isCreator = false
        if scope.keepsInstance, !state.isDryRun {
            if let kept = try await claim(registration) { return kept }
            isCreator = true
            state.siblings.begin(registration)
        }
        // A kept instance is built from the registrations of the container that keeps it.
        let lookup = scope.keepsInstance ? registration.owner : container
        let handle = AsyncResolution(
            state: state,
            scope: self.scope,
            frame: AsyncFrame(registration, argumentHash: argumentHash, outer: frame),
            container: lookup
        )
        let instance: Service
        do {
            instance = try await handle.make(registration, from: lookup, arguments: repeat each arguments)
        } catch {
            let wrapped = handle.wrap(error)
            if isCreator {
                state.abandonCreation(
                    of: registration, because: wrapped, retry: Task.isCancelled || wrapped.kind == .cancelled)
            }
            throw wrapped
        }
        if let graphKey { state.keepGraphInstance(instance, for: graphKey, owners: [registration, container]) }
        let completes = enqueueCompletions(of: registration, for: instance, from: lookup)
        let isKept =
            !isCreator
            || state.addClaim(
                instance, of: registration, weakly: scope == .weak, in: self.scope, needsNoCompletion: !completes)
        // Too late — the completions of this resolve's scope have run, or the resolve has ended:
        // resolved from a task its factory did not await. Nothing it made is kept or completed.
        guard isKept, !self.scope.isClosed else {
            throw ResolutionError(kind: .resolverExpired, service: registration.step.service, path: frame?.steps ?? [])
        }
        return instance
    }

    /// The kept instance of `registration`, or `nil` once this resolve has claimed the right to
    /// create it; waits (suspending) while another resolve creates it.
    private func claim<Service>(_ registration: Registration<Service>) async throws(ResolutionError) -> Service? {
        let cell = registration.asyncCell
        while true {
            switch cell.claim(by: state.number) {
            case .kept(let kept):
                return kept
            case .create:
                return nil
            case .busy(let creator):
                do {
                    let published = try await AsyncCreationWaits.waiting(
                        state.number,
                        for: registration.step.description,
                        createdBy: creator,
                        while: { cell.isCreating(by: creator) },
                        { try await cell.waitForCreation(of: creator) }
                    )
                    if let published { return published }
                } catch let deadlock as AsyncCreationWaits.Deadlock {
                    var error = ResolutionError(
                        kind: .deadlock,
                        service: deadlock.services.first ?? registration.step.description,
                        path: frame?.steps ?? [],
                        relatedServices: deadlock.services
                    )
                    error.isBetweenTasks = true
                    error.contestedCreation = { _ = try? await cell.waitForCreation(of: creator) }
                    throw error
                } catch {
                    throw wrap(error)
                }
            // The creation was given up or is over: claim again.
            case .ownCreation:
                // Made, or being made in another task, by this same resolve (on this path it
                // would be a cycle, found before): the same instance, once made.
                do {
                    let made = try await state.siblings.instance(
                        of: ObjectIdentifier(registration),
                        creating: frame?.registrations ?? [],
                        in: scope
                    )
                    // Made by this registration, so of its type.
                    if let made { return (made as! Service) }
                } catch is SiblingCreations.Cycle, is SiblingCreations.Incomplete {
                    // Incomplete, too, as a synchronous nested resolve reports it: handing it out
                    // would show it half-built.
                    throw ResolutionError(kind: .cycle, service: registration.step.service, path: frame?.steps ?? [])
                } catch {
                    throw wrap(error)
                }
                // Its creation is just starting, or was given up: claim again.
                await Task.yield()
            }
        }
    }

    /// Runs the factory of `registration` (which needs an async resolve) with this resolution.
    private func make<Service, each Argument>(
        _ registration: Registration<Service>,
        from container: Container,
        arguments: repeat each Argument
    ) async throws -> Service {
        switch registration.isolation {
        case .async:
            let factory = unsafeDowncast(registration.factory, to: AsyncFactoryBox<Service, repeat each Argument>.self)
            return try await Self.$current.withValue(self) {
                try await factory.make(self, repeat each arguments)
            }
        case .none:
            // A synchronous factory with an async `initCompleted` closure: the factory runs in a
            // synchronous resolve of its own.
            let factory = unsafeDowncast(registration.factory, to: FactoryBox<Service, repeat each Argument>.self)
            return try synchronously(from: container) { context throws(ResolutionError) in
                do {
                    return try factory(context.resolution(from: container), repeat each arguments)
                } catch {
                    throw wrap(error)
                }
            }
        case .mainActor:
            throw ResolutionError(
                kind: .needsAsyncResolve,
                service: registration.step.service,
                path: frame?.steps ?? [],
                underlyingError: "a main-actor factory cannot have async initCompleted closures"
            )
        }
    }

    /// Resolves a registration with a synchronous factory: as a synchronous resolve of its own (on
    /// the main actor if its factory is isolated there), which starts from this task's `.graph`
    /// instances and adds what it makes to them.
    ///
    /// Its shared instances are published when it ends, as in any synchronous resolve, even if
    /// the async resolve fails later: keeping them until then would hold threads that wait for
    /// them while this task is suspended.
    private func resolveSynchronously<Service, each Argument>(
        _ registration: Registration<Service>,
        from container: Container,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Service {
        let graphKey =
            registration.scope == .graph && !registration.takesArguments
            ? graphKey(of: registration, from: container) : nil
        if let graphKey, let cached = state.graphInstance(graphKey, as: Service.self) { return cached }
        do throws(ResolutionError) {
            guard registration.isolation == .mainActor, !MainQueue.isCurrent, let hop = registration.mainActorHop
            else {
                // Its graph instance, with those it made, joins this task's graph.
                return try synchronously(from: container) { context throws(ResolutionError) in
                    try context.resolve(registration, from: container, arguments: repeat each arguments)
                }
            }
            let instance = try await unsafeDowncast(hop, to: MainActorHop<Service, repeat each Argument>.self)
                .resolve(
                    container, registration.description.name, state.isDryRun, state.dryRunFindings,
                    repeat each arguments)
            // Made by a resolve on the main actor, whose graph is its own: this one is kept.
            if let graphKey { state.keepGraphInstance(instance, for: graphKey, owners: [registration, container]) }
            return instance
        } catch {
            throw error.following(frame?.steps ?? [])
        }
    }

    /// Runs `body` in a synchronous top-level resolve looking up from `container`, which starts
    /// from this task's `.graph` instances (in the task that shares them) and adds the ones it
    /// makes to them.
    private func synchronously<Result>(
        from container: Container,
        _ body: (ResolutionContext) throws(ResolutionError) -> Result
    ) throws(ResolutionError) -> Result {
        let shares = state.sharesGraph
        let seed = shares ? state.graphInstances : [:]
        return try container.withTopLevelResolution(isDryRun: state.isDryRun) { context throws(ResolutionError) in
            context.dryRunFindings = state.dryRunFindings
            if let tracer = state.tracer {
                context.tracer = tracer
                context.traceDepthOffset = frame?.depth ?? 0
                context.isObserved = true
            }
            for (key, instance) in seed { context.graph.insertValue(instance, for: key) }
            let result = try body(context)
            guard shares else { return result }
            let made = context.graph.entries.filter { seed[$0.key] == nil }
            guard !made.isEmpty else { return result }
            // Kept only with the registration and container each key names, found in this
            // container's chain and held, so that their addresses are not reused meanwhile.
            let owners = container.owners(of: made.map(\.key))
            for entry in made {
                guard let owners = owners[entry.key] else { continue }
                state.keepGraphInstance(entry.instance.value, for: entry.key, owners: owners)
            }
            return result
        }
    }

    /// Queues the auto-injection and the `initCompleted` closures of a new instance.
    ///
    /// - Returns: Whether it queued any.
    private func enqueueCompletions<Service>(
        of registration: Registration<Service>,
        for instance: Service,
        from lookup: Container
    ) -> Bool {
        var queued = false
        if registration.autoInjects,
            let injection = registration.autoInjection.injection(into: instance, of: registration)
        {
            scope.enqueue(
                .init(registration: registration, container: lookup, run: .sync { try injection($0, instance) }))
            queued = true
        }
        if registration.hasCompletion {
            for completion in registration.completions {
                scope.enqueue(
                    .init(registration: registration, container: lookup, run: .sync { try completion($0, instance) })
                )
                queued = true
            }
        }
        for completion in registration.asyncCompletions {
            scope.enqueue(
                .init(registration: registration, container: lookup, run: .async { try await completion($0, instance) })
            )
            queued = true
        }
        return queued
    }

    /// Runs a queued completion, with this resolution (whose frame is its registration's).
    func run(_ completion: AsyncScope.Completion) async throws(ResolutionError) {
        do {
            switch completion.run {
            case .sync(let run):
                let container = completion.container
                try synchronously(from: container) { context throws(ResolutionError) in
                    do {
                        try run(context.resolution(from: container))
                    } catch {
                        throw wrap(error)
                    }
                }
            case .async(let run):
                try await Self.$current.withValue(self) { try await run(self) }
            }
        } catch {
            throw wrap(error)
        }
    }

    /// The key of the `.graph` instance of `registration` looked up from `container`, or `nil` in
    /// a task that does not share them.
    /// Whether `registration`'s scope has an instance for this resolve, for its trace.
    func isCached<Service>(_ registration: Registration<Service>, from container: Container) -> Bool {
        switch registration.scope {
        case .transient:
            return false
        case .container, .weak:
            return registration.needsAsyncResolve
                ? registration.asyncCell.keptInstance != nil : registration.cell.instance != nil
        case .graph:
            guard !registration.takesArguments, let key = graphKey(of: registration, from: container) else {
                return false
            }
            return state.graphInstance(key, as: Service.self) != nil
        }
    }

    private func graphKey(of registration: AnyObject, from container: Container) -> GraphKey? {
        guard state.sharesGraph else { return nil }
        return GraphKey(registration: ObjectIdentifier(registration), container: ObjectIdentifier(container))
    }

    /// The error a factory threw, as a ``ResolutionError`` with this resolution's path.
    func wrap(_ error: any Error) -> ResolutionError {
        if let resolutionError = error as? ResolutionError { return resolutionError }
        let steps = frame?.steps ?? []
        return ResolutionError(
            kind: error is CancellationError ? .cancelled : .factoryFailed,
            service: steps.last?.service ?? "?",
            path: steps,
            underlyingError: String(describing: error)
        )
    }
}

extension ResolutionError {
    /// This error, reached through `steps`: they go before its own path.
    func following(_ steps: [Step]) -> ResolutionError {
        guard !steps.isEmpty else { return self }
        var error = ResolutionError(
            kind: kind,
            service: service,
            path: steps + path,
            availableRegistrations: availableRegistrations,
            underlyingError: underlyingError,
            relatedServices: relatedServices,
            depth: depth
        )
        error.isBetweenTasks = isBetweenTasks
        error.contestedCreation = contestedCreation
        return error
    }
}

extension GraphInstances {
    /// Keeps `instance`, made by an async resolve, for a synchronous one to find.
    mutating func insertValue(_ instance: Any, for identity: GraphKey) {
        append(Entry(key: identity, instance: .value(instance)))
    }
}

extension GraphInstances.Instance {
    /// The instance, whatever its kind.
    var value: Any {
        switch self {
        case .object(let object): object
        case .value(let value): value
        }
    }
}
