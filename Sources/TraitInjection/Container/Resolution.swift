/// One top-level `resolve`: its graph-scoped instances, the path of services being created (for
/// cycle detection and error messages) and the `initCompleted` closures still to run.
///
/// Each top-level resolve has its own, so concurrent resolutions of the same service on two
/// threads are never mistaken for a cycle. It is used on one thread only and holds no lock while
/// factories run.
@usableFromInline
final class Resolution: Resolver {
    /// A service being created; its description is only built if an error needs it.
    @usableFromInline
    struct Frame {
        @usableFromInline let registration: any AnyRegistration

        @usableFromInline
        init(_ registration: any AnyRegistration) {
            self.registration = registration
        }

        var step: ResolutionError.Step { registration.step }
    }

    /// Where lookups start: the container the top-level `resolve` was called on. (Set while the
    /// resolution is in use; a reused resolution lets go of it in between.)
    @exclusivity(unchecked) private(set) var container: Container!
    /// In a dry run (``Container/verify()``), container- and weak-scoped instances are created if
    /// needed but not kept.
    @usableFromInline
    private(set) var isDryRun: Bool

    // A resolution is confined to one thread and never re-enters an access to these, so the
    // dynamic exclusivity checks (a quarter of a transient resolve) are turned off for them.
    @usableFromInline @exclusivity(unchecked) var graph: [ObjectIdentifier: Any] = [:]
    @usableFromInline @exclusivity(unchecked) var path: [Frame] = []
    /// Queued completions; each throws only `ResolutionError`s.
    @exclusivity(unchecked) private var pending: [() throws -> Void] = []
    private var isDraining = false

    /// Completions run per top-level resolve before it gives up on a graph that keeps growing.
    static let completionLimit = 10_000

    init(container: Container, isDryRun: Bool = false) {
        self.container = container
        self.isDryRun = isDryRun
    }

    // MARK: Reuse

    /// A resolution for a top-level resolve on `container`: this thread's idle one if it has one,
    /// so that a resolve allocates nothing for its bookkeeping.
    @usableFromInline
    static func acquire(for container: Container) -> Resolution {
        guard let pointer = ThreadResolution.take() else { return Resolution(container: container) }
        let resolution = Unmanaged<Resolution>.fromOpaque(pointer).takeRetainedValue()
        resolution.container = container
        return resolution
    }

    /// Hands a finished top-level resolution back for reuse on this thread, unless a factory kept
    /// a reference to it (then it stays that factory's, and this thread makes a new one).
    @usableFromInline
    static func release(_ resolution: consuming Resolution) {
        var resolution = resolution
        guard isKnownUniquelyReferenced(&resolution) else { return }
        resolution.container = nil
        resolution.isDryRun = false
        resolution.graph.removeAll(keepingCapacity: true)
        resolution.path.removeAll(keepingCapacity: true)
        resolution.pending.removeAll(keepingCapacity: true)
        ThreadResolution.offer(Unmanaged.passRetained(resolution).toOpaque()) {
            Unmanaged<Resolution>.fromOpaque($0).release()
        }
    }

    @usableFromInline
    func resolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        guard let found = container.registration(for: key) else {
            let requested = ServiceDescription(Service.self, name: name, arguments: (repeat each Argument).self)
            throw error(
                .notRegistered,
                service: requested.description,
                available: container.registrations(of: key.service)
            )
        }
        return try resolve(unsafeDowncast(found, to: Registration<Service>.self), arguments: repeat each arguments)
    }

    /// Resolves `registration`, found under the key of `Service` and the argument types.
    @inlinable
    func resolve<Service, each Argument>(
        _ registration: Registration<Service>,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        let scope = registration.scope
        let identity = ObjectIdentifier(registration)

        switch scope {
        case .graph:
            if let cached = graph[identity] { return try cast(cached, for: registration) }
        case .container, .weak:
            if let cached = registration.cell.instance { return cached }
        case .transient:
            break
        }
        if let start = path.firstIndex(where: { $0.registration === registration }) {
            throw cycle(from: start, back: registration)
        }

        let keepsInstance = (scope == .container || scope == .weak) && !isDryRun
        if keepsInstance, case .instance(let cached) = registration.cell.claim() {
            return cached
        }

        path.append(Frame(registration))
        let instance: Service
        do {
            let factory = unsafeDowncast(registration.factory, to: FactoryBox<Service, repeat each Argument>.self)
            instance = try factory(self, repeat each arguments)
        } catch {
            if keepsInstance { registration.cell.abandon() }
            defer { path.removeLast() }
            throw wrap(error)
        }
        path.removeLast()

        switch scope {
        case .graph: graph[identity] = instance
        case .container where keepsInstance: registration.cell.publish(instance, weakly: false)
        case .weak where keepsInstance: registration.cell.publish(instance, weakly: true)
        case .container, .weak, .transient: break
        }
        // Auto-injection of @Inject/@WeakInject properties, queued like initCompleted so cycles close.
        if let injection = registration.autoInjection.injection(into: instance, of: registration) {
            enqueue(injection, for: instance, of: registration)
        }
        if let completion = registration.completion {
            enqueue(completion, for: instance, of: registration)
        }
        if path.isEmpty { try drainCompletions() }
        return instance
    }

    /// The error for a cycle that runs from `path[start]` back to `registration`.
    @usableFromInline
    func cycle(from start: Int, back registration: any AnyRegistration) -> ResolutionError {
        ResolutionError(
            kind: .cycle,
            service: registration.step.service,
            path: path[start...].map(\.step),
            availableRegistrations: [],
            underlyingError: nil
        )
    }

    /// Queues `completion` to run once the outermost factory has returned. (A typed-throws closure
    /// here crashes the 6.3 compiler, so the queue holds untyped ones.)
    @usableFromInline
    func enqueue<Service>(
        _ completion: @escaping @Sendable (any Resolver, Service) throws -> Void,
        for instance: Service,
        of registration: Registration<Service>
    ) {
        pending.append {
            do {
                try completion(self, instance)
            } catch {
                self.path.append(Frame(registration))
                defer { self.path.removeLast() }
                throw self.wrap(error)
            }
        }
    }

    /// Runs the queued `initCompleted` closures, including those queued by the resolves they make.
    @usableFromInline
    func drainCompletions() throws(ResolutionError) {
        guard !isDraining else { return }
        isDraining = true
        defer { isDraining = false }
        var runs = 0
        while !pending.isEmpty {
            runs += 1
            guard runs <= Self.completionLimit else {
                throw error(
                    .factoryFailed,
                    service: "initCompleted",
                    underlying: """
                        more than \(Self.completionLimit) initCompleted closures ran in one resolve: a \
                        closure keeps creating new instances. Keep services that close a cycle in the \
                        `.graph` scope (the default) rather than `.transient`.
                        """
                )
            }
            let completion = pending.removeFirst()
            do {
                try completion()
            } catch {
                throw wrap(error)
            }
        }
    }

    @usableFromInline
    func cast<Service>(_ instance: Any, for registration: Registration<Service>) throws(ResolutionError)
        -> Service
    {
        guard let service = instance as? Service else {
            throw error(.typeMismatch, service: registration.description.description)
        }
        return service
    }

    @usableFromInline
    func wrap(_ error: any Error) -> ResolutionError {
        if let resolutionError = error as? ResolutionError { return resolutionError }
        let failing = path.last?.step.service ?? "?"
        return self.error(.factoryFailed, service: failing, underlying: String(describing: error))
    }

    private func error(
        _ kind: ResolutionError.Kind,
        service: String,
        available: [String] = [],
        underlying: String? = nil
    ) -> ResolutionError {
        ResolutionError(
            kind: kind,
            service: service,
            path: path.map(\.step),
            availableRegistrations: available,
            underlyingError: underlying
        )
    }
}
