// The errors a resolution builds, with its path along the thread's chain.

extension ResolutionContext {
    @usableFromInline
    func wrap(_ error: any Error) -> ResolutionError {
        if let resolutionError = error as? ResolutionError { return resolutionError }
        let failing = path.innermostService ?? "?"
        return ResolutionError(
            kind: .factoryFailed,
            service: failing,
            path: path.steps(),
            underlyingError: String(describing: error)
        )
    }

    /// The error for a cycle: `registration` is already being created on this thread's chain.
    @usableFromInline
    func cycleThroughChain(back registration: any AnyRegistration) -> ResolutionError {
        let frames = chain().flatMap { context in (0..<context.path.count).map { context.path.frames[$0].registration }
        }
        let start = frames.firstIndex { $0 === registration } ?? 0
        return ResolutionError(kind: .cycle, service: registration.step.service, path: frames[start...].map(\.step))
    }

    /// Throws if this synchronous resolve cannot run the factory of `registration`: it awaits, or
    /// it is isolated to the main actor and this resolve runs elsewhere.
    @usableFromInline
    func checkIsolation<Service>(_ registration: Registration<Service>) throws(ResolutionError) {
        if registration.needsAsyncResolve {
            throw ResolutionError(kind: .needsAsyncResolve, service: registration.step.service, path: path.steps())
        }
        if registration.isolation == .mainActor, !MainQueue.isCurrent {
            throw ResolutionError(kind: .needsMainActor, service: registration.step.service, path: path.steps())
        }
    }

    /// The error for a chain too deep for this thread's stack.
    @usableFromInline
    func tooDeep(_ registration: any AnyRegistration) -> ResolutionError {
        let frames = chain().flatMap { context in (0..<context.path.count).map { context.path.frames[$0].registration }
        }
        return ResolutionError(
            kind: .tooDeep,
            service: registration.step.service,
            path: frames.prefix(5).map(\.step),
            depth: frames.count + 1
        )
    }

    /// The error for a service registered nowhere in the container chain.
    func notRegistered(_ requested: ServiceDescription, service: ObjectIdentifier, from container: Container)
        -> ResolutionError
    {
        ResolutionError(
            kind: .notRegistered,
            service: requested.description,
            path: path.steps(),
            availableRegistrations: container.registrations(of: service)
        )
    }

    /// Resolves a service with no registration: `T?` as the registered `T`, a ``Lazy`` or
    /// ``Provider`` of a service, or an error.
    @usableFromInline
    func resolveUnregistered<Service, each Argument>(
        _: Service.Type,
        from container: Container,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        if let optional = Service.self as? any OptionalService.Type {
            let wrapped = try optional.resolveWrapped(
                with: resolution(from: container),
                name: name,
                arguments: repeat each arguments
            )
            return wrapped as! Service
        }
        if let findings = dryRunFindings, case let ancestors = chainFrames(),
            let provided = findings.childOnly(
                ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self), from: container,
                ancestors: ancestors)
        {
            // Reported as a lifetime problem; the dry run goes on with the child's registration.
            findings.check(provided, ancestors: ancestors)
            return try resolve(
                unsafeDowncast(provided, to: Registration<Service>.self), from: findings.container,
                arguments: repeat each arguments)
        }
        if (repeat each Argument).self == Void.self, let deferred = Service.self as? any DeferredService.Type {
            return try deferred.make(from: container, name: name, isDryRun: isDryRun, path: path.steps()) as! Service
        }
        let requested = ServiceDescription(Service.self, name: name, arguments: (repeat each Argument).self)
        throw notRegistered(requested, service: ObjectIdentifier(Service.self), from: container)
    }
}

/// `Optional`, so that resolving `T?` resolves `T`.
protocol OptionalService {
    static func resolveWrapped<each Argument>(
        with resolution: Resolution,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Any

    static func resolveWrapped<each Argument>(
        in resolution: AsyncResolution,
        name: String?,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Any

    /// Why a later synchronous resolve of the wrapped service would fail.
    static func laterResolveProblem(from container: Container, name: String?) -> LaterResolveProblem?
}

extension Optional: OptionalService {
    static func laterResolveProblem(from container: Container, name: String?) -> LaterResolveProblem? {
        LaterResolveProblem.of(Wrapped.self, name: name, from: container)
    }

    static func resolveWrapped<each Argument>(
        with resolution: Resolution,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Any {
        Wrapped?.some(try resolution.resolve(Wrapped.self, name: name, arguments: repeat each arguments)) as Any
    }

    static func resolveWrapped<each Argument>(
        in resolution: AsyncResolution,
        name: String?,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Any {
        Wrapped?.some(try await resolution.resolve(Wrapped.self, name: name, arguments: repeat each arguments)) as Any
    }
}
