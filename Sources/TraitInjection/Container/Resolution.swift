/// The resolver a factory receives: one top-level `resolve` of a ``Container`` in progress.
///
/// ```swift
/// container.register(Person.self) { r in   // r: Resolution
///     PetOwner(name: "Stephen", pet: try r.resolve(Animal.self))
/// }
/// ```
///
/// Resolving through it keeps the object graph together: `.graph`-scoped services are shared
/// across the whole top-level resolve, cycles are reported with their path, and `initCompleted`
/// closures run once the outermost factory has returned. Being a concrete type rather than
/// `any Resolver`, its resolves are specialised for the service types at each call site.
///
/// A resolution belongs to the thread running the factory: use it there, during the factory (a
/// resolution kept for later still works, and keeps its container alive).
public final class Resolution: Resolver {
    /// Where lookups start: the container the top-level `resolve` was called on.
    ///
    /// Not retained while a top-level `resolve` runs (its caller holds the container), so that
    /// resolves on several threads write nothing to the container. A resolution that outlives its
    /// top-level resolve (a factory kept the resolver) retains it in `keepAlive`.
    @usableFromInline @exclusivity(unchecked) unowned(unsafe) var container: Container
    /// The container, retained, for a resolution that is not one of a thread's reusable ones or
    /// that a factory kept.
    private var keepAlive: Container?
    /// In a dry run (``Container/verify()``), container- and weak-scoped instances are created if
    /// needed but not kept.
    @usableFromInline
    private(set) var isDryRun: Bool

    // A resolution is confined to one thread and never re-enters an access to these, so the
    // dynamic exclusivity checks (a quarter of a transient resolve) are turned off for them.
    @usableFromInline @exclusivity(unchecked) var graph = GraphInstances()
    @usableFromInline @exclusivity(unchecked) var path = ResolutionPath()
    /// Queued completions; each throws only `ResolutionError`s.
    @usableFromInline @exclusivity(unchecked) var pending: [() throws -> Void] = []
    private var isDraining = false

    /// Completions run per top-level resolve before it gives up on a graph that keeps growing.
    static let completionLimit = 10_000

    init(container: Container, isDryRun: Bool = false) {
        self.container = container
        keepAlive = container
        self.isDryRun = isDryRun
    }

    deinit {
        path.deallocate()
    }

    /// A reusable resolution, which does not retain its container.
    private init(borrowing container: Container) {
        self.container = container
        isDryRun = false
    }

    // MARK: Reuse

    /// Whether this is a thread's reusable resolution, owned by its thread-local slot.
    @exclusivity(unchecked) private var isThreadResolution = false
    /// Whether a top-level resolve is using this thread's resolution right now.
    @exclusivity(unchecked) private var isInUse = false

    /// A resolution for a top-level resolve on `container`: this thread's reusable one unless a
    /// resolve on this thread is already using it, so that a resolve allocates nothing for its
    /// bookkeeping. Hand it back with ``release(_:)``.
    @usableFromInline
    static func acquire(for container: Container) -> Unmanaged<Resolution> {
        let slot = container.threadResolution
        if let pointer = slot.pointer {
            let reusable = Unmanaged<Resolution>.fromOpaque(pointer)
            let isFree = reusable._withUnsafeGuaranteedRef { resolution in
                guard !resolution.isInUse else { return false }
                resolution.isInUse = true
                resolution.container = container
                return true
            }
            // A nested top-level resolve on this thread makes its own, owned by the caller.
            return isFree ? reusable : Unmanaged.passRetained(Resolution(borrowing: container))
        }
        // This thread's first resolve: its resolution goes into the slot, which owns it.
        let resolution = Resolution(borrowing: container)
        resolution.isThreadResolution = true
        resolution.isInUse = true
        let owned = Unmanaged.passRetained(resolution)
        slot.store(owned.toOpaque())
        return owned
    }

    /// Hands back a resolution from ``acquire(for:)`` once its top-level resolve is done.
    ///
    /// If a factory kept a reference to it, it stays that factory's and keeps its container
    /// alive from now on; the thread makes a new one next time.
    @usableFromInline
    static func release(_ unmanaged: Unmanaged<Resolution>) {
        // The slot's reference (or the caller's, for a nested one), taken over for the check.
        var resolution = unmanaged.takeRetainedValue()
        let isKept = !isKnownUniquelyReferenced(&resolution)
        if isKept {
            resolution.keepAlive = resolution.container
            if resolution.isThreadResolution {
                resolution.isThreadResolution = false
                resolution.container.threadResolution.store(nil)
            }
            return
        }
        guard resolution.isThreadResolution else { return }
        if !resolution.graph.isEmpty { resolution.graph.removeAll() }
        resolution.path.removeAll()
        if !resolution.pending.isEmpty { resolution.pending.removeAll(keepingCapacity: true) }
        resolution.isInUse = false
        // The slot keeps its reference.
        _ = Unmanaged.passRetained(resolution)
    }

    /// Resolves `service` registered under `name` with runtime `arguments`, as part of this
    /// resolution's object graph.
    ///
    /// - Throws: ``ResolutionError`` when nothing is registered, a cycle is found or a factory
    ///   throws, with the path that led here.
    @inlinable
    public func resolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        // The container is not retained for the lookup: the top-level resolve's caller holds it.
        guard let found = container.registration(for: key) else {
            throw notRegistered(service, name: name, arguments: (repeat each Argument).self)
        }
        // Not retained: the snapshot the registration was found in keeps it alive.
        return try found.withBorrowed { object throws(ResolutionError) in
            try resolve(unsafeDowncast(object, to: Registration<Service>.self), arguments: repeat each arguments)
        }
    }

    /// Resolves the unnamed registration of `service`, passing `arguments` to its factory.
    ///
    /// ```swift
    /// container.register(Person.self) { r in
    ///     PetOwner(name: "Stephen", pet: try r.resolve(Animal.self))
    /// }
    /// ```
    @inlinable
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        try resolve(service, name: nil, arguments: repeat each arguments)
    }

    /// The error for a service that is registered nowhere in the container chain.
    @usableFromInline
    func notRegistered<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: (repeat each Argument).Type
    ) -> ResolutionError {
        let requested = ServiceDescription(Service.self, name: name, arguments: arguments)
        return error(
            .notRegistered,
            service: requested.description,
            available: container.registrations(of: ObjectIdentifier(Service.self))
        )
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
            if let cached = graph.instance(for: identity, as: Service.self) { return cached }
        case .container:
            if let cached = registration.cell.strongInstance { return cached }
        case .weak:
            if let cached = registration.cell.instance { return cached }
        case .transient:
            break
        }
        if let start = path.index(of: registration) {
            throw cycle(from: start, back: registration)
        }

        let keepsInstance = (scope == .container || scope == .weak) && !isDryRun
        if keepsInstance, case .instance(let cached) = registration.cell.claim() {
            return cached
        }

        path.push(registration)
        let instance: Service
        do {
            // The registration keeps its factory: it is called without retaining it.
            instance = try Unmanaged.passUnretained(registration.factory)._withUnsafeGuaranteedRef { box in
                let factory = unsafeDowncast(box, to: FactoryBox<Service, repeat each Argument>.self)
                return try factory(self, repeat each arguments)
            }
        } catch {
            if keepsInstance { registration.cell.abandon() }
            defer { path.pop() }
            throw wrap(error)
        }
        path.pop()

        switch scope {
        case .graph: graph.insert(instance, for: identity)
        case .container where keepsInstance: registration.cell.publish(instance, weakly: false)
        case .weak where keepsInstance: registration.cell.publish(instance, weakly: true)
        case .container, .weak, .transient: break
        }
        // Auto-injection of @Inject/@WeakInject properties, queued like initCompleted so cycles close.
        if let injection = registration.autoInjection.injection(into: instance, of: registration) {
            enqueue(injection, for: instance, of: registration)
        }
        if registration.hasCompletion, let completion = registration.completion {
            enqueue(completion, for: instance, of: registration)
        }
        if path.isEmpty, !pending.isEmpty { try drainCompletions() }
        return instance
    }

    /// The error for a cycle that runs from `path[start]` back to `registration`.
    @usableFromInline
    func cycle(from start: Int, back registration: any AnyRegistration) -> ResolutionError {
        ResolutionError(
            kind: .cycle,
            service: registration.step.service,
            path: path.steps(from: start),
            availableRegistrations: [],
            underlyingError: nil
        )
    }

    /// Queues `completion` to run once the outermost factory has returned. (A typed-throws closure
    /// here crashes the 6.3 compiler, so the queue holds untyped ones.)
    @usableFromInline
    func enqueue<Service>(
        _ completion: @escaping @Sendable (Resolution, Service) throws -> Void,
        for instance: Service,
        of registration: Registration<Service>
    ) {
        pending.append {
            do {
                try completion(self, instance)
            } catch {
                self.path.push(registration)
                defer { self.path.pop() }
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
    func wrap(_ error: any Error) -> ResolutionError {
        if let resolutionError = error as? ResolutionError { return resolutionError }
        let failing = path.innermostService ?? "?"
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
            path: path.steps(),
            availableRegistrations: available,
            underlyingError: underlying
        )
    }
}
