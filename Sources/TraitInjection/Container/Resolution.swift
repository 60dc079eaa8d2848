/// One top-level `resolve`: its graph-scoped instances, the path of services being created (for
/// cycle detection and error messages) and the `initCompleted` closures still to run.
///
/// Each top-level resolve has its own, so concurrent resolutions of the same service on two
/// threads are never mistaken for a cycle. It is used on one thread only and holds no lock while
/// factories run.
final class Resolution: Resolver {
    private struct Frame {
        let registration: AnyObject
        let step: ResolutionError.Step
    }

    /// Where lookups start: the container the top-level `resolve` was called on.
    let container: Container
    /// In a dry run (``Container/verify()``), container- and weak-scoped instances are created if
    /// needed but not kept.
    let isDryRun: Bool

    private var graph: [ObjectIdentifier: Any] = [:]
    private var path: [Frame] = []
    /// Queued completions; each throws only `ResolutionError`s.
    private var pending: [() throws -> Void] = []
    private var isDraining = false

    /// Completions run per top-level resolve before it gives up on a graph that keeps growing.
    static let completionLimit = 10_000

    init(container: Container, isDryRun: Bool = false) {
        self.container = container
        self.isDryRun = isDryRun
    }

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
        let registration = unsafeDowncast(found, to: Registration<Service>.self)
        let configuration = registration.configuration.withLock { $0 }
        let identity = ObjectIdentifier(registration)

        switch configuration.scope {
        case .graph:
            if let cached = graph[identity] { return try cast(cached, for: registration) }
        case .container, .weak:
            if let cached = registration.cell.instance { return try cast(cached, for: registration) }
        case .transient:
            break
        }
        if let start = path.firstIndex(where: { $0.registration === registration }) {
            throw ResolutionError(
                kind: .cycle,
                service: registration.description.description,
                path: path[start...].map(\.step),
                availableRegistrations: [],
                underlyingError: nil
            )
        }

        let keepsInstance = (configuration.scope == .container || configuration.scope == .weak) && !isDryRun
        if keepsInstance, case .instance(let cached) = registration.cell.claim() {
            return try cast(cached, for: registration)
        }

        path.append(Frame(registration: registration, step: registration.step))
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

        switch configuration.scope {
        case .graph: graph[identity] = instance
        case .container where keepsInstance: registration.cell.publish(instance, weakly: false)
        case .weak where keepsInstance: registration.cell.publish(instance, weakly: true)
        case .container, .weak, .transient: break
        }
        if let completion = configuration.initCompleted {
            enqueue(completion, for: instance, of: registration)
        }
        if path.isEmpty { try drainCompletions() }
        return instance
    }

    /// Queues `completion` to run once the outermost factory has returned. (A typed-throws closure
    /// here crashes the 6.3 compiler, so the queue holds untyped ones.)
    private func enqueue<Service>(
        _ completion: @escaping @Sendable (any Resolver, Service) throws -> Void,
        for instance: Service,
        of registration: Registration<Service>
    ) {
        pending.append {
            do {
                try completion(self, instance)
            } catch {
                self.path.append(Frame(registration: registration, step: registration.step))
                defer { self.path.removeLast() }
                throw self.wrap(error)
            }
        }
    }

    /// Runs the queued `initCompleted` closures, including those queued by the resolves they make.
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

    private func cast<Service>(_ instance: Any, for registration: Registration<Service>) throws(ResolutionError)
        -> Service
    {
        guard let service = instance as? Service else {
            throw error(.typeMismatch, service: registration.description.description)
        }
        return service
    }

    private func wrap(_ error: any Error) -> ResolutionError {
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
