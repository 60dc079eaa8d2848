public import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    #error("TraitInjection supports Darwin, Glibc and Musl platforms.")
#endif

/// A dependency injection container: register factories for services, then resolve them.
///
/// ```swift
/// let container = Container()
/// container.register(Animal.self) { _ in Cat(name: "Mimi") }
/// container.register(Animal.self, name: "dog") { _ in Dog(name: "Hachi") }
/// container.register(Person.self) { r in PetOwner(name: "Stephen", pet: try r.resolve(Animal.self)) }
///
/// let person = try container.resolve(Person.self)        // throws ResolutionError, never traps
/// let dog = try container.resolve(Animal.self, name: "dog")
/// ```
///
/// A container is `Sendable`: register and resolve from any thread or task. No lock is held
/// while factories and `initCompleted` closures run, so they may resolve, register, or wait for
/// other threads that use the same container.
///
/// A child container, `Container(parent:)`, looks up its own registrations first and then its
/// parent's, so a child can override a service for one part of an app or for a test.
public final class Container: Sendable, Resolver {
    /// The container consulted after this one.
    public let parent: Container?

    /// The registrations, each a `Registration<Service>` filed under its exact key, as written by
    /// `register`, with the snapshots of them published for lock-free lookups.
    let registry = Locked.make(Registry())

    /// The address of the current snapshot of the registrations (a `RegistrySnapshot`, kept alive
    /// by `registry`), or 0 after a `register` until the next lookup publishes a new one.
    ///
    /// A lookup reads it without a lock and without retaining it, so that threads resolving at the
    /// same time write to no shared memory. A superseded snapshot may still be in use by a resolve
    /// on another thread, so it is released only once every resolve that was running when it was
    /// superseded has ended (see `Container+Registry.swift`).
    @usableFromInline
    let published = Atomic<UInt>(0)

    /// The slot holding each thread's resolution context.
    @usableFromInline
    let threadContexts = ThreadContexts.shared

    /// The tracer set with ``resolutionTrace``.
    let tracer = Locked<ResolutionTracer?>.make(nil)
    /// Whether resolves started here are traced: read, relaxed, by every top-level resolve.
    @usableFromInline
    let isTracing = Atomic<Bool>(ResolutionTracer.environment != nil)

    /// Creates an empty container, optionally falling back to `parent`'s registrations.
    public init(parent: Container? = nil) {
        self.parent = parent
    }

    // MARK: Registering

    /// Registers `factory` for `service` under `name`; it receives a resolver and the runtime
    /// arguments, whose types become part of the key.
    ///
    /// Registering the same service, name and argument types again replaces the registration,
    /// which is how a test overrides a service.
    ///
    /// ```swift
    /// container.register(Greeter.self) { (_, greeting: String, times: Int) in
    ///     Greeter(greeting: greeting, times: times)
    /// }
    /// let greeter = try container.resolve(Greeter.self, arguments: "Hi", 2)
    /// ```
    ///
    /// - Returns: The registration, to refine with ``Registration/inScope(_:)`` or
    ///   ``Registration/initCompleted(_:)-((Resolution,Service)->Void)``.
    @discardableResult
    public func register<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        add(FactoryBox(factory), of: Service.self, name: name, arguments: (repeat each Argument).self, file, line)
    }

    /// Files a registration of `factory` for `Service` under `name` and the argument types,
    /// replacing any registration there.
    func add<Service, each Argument>(
        _ factory: any AnyObject & Sendable,
        of _: Service.Type,
        name: String?,
        arguments: (repeat each Argument).Type,
        _ file: StaticString,
        _ line: UInt,
        isolation: FactoryIsolation = .none,
        mainActorHop: (any AnyObject & Sendable)? = nil
    ) -> Registration<Service> {
        let registration = Registration<Service>(
            description: ServiceDescription(Service.self, name: name, arguments: arguments),
            location: Self.location(file, line),
            owner: self,
            autoInjects: true,
            factory: factory,
            isolation: isolation,
            mainActorHop: mainActorHop
        )
        return add(registration, for: ServiceKey(Service.self, name: name, arguments: arguments))
    }

    /// Files `registration` under `key`, replacing any registration there.
    func add<Service>(_ registration: Registration<Service>, for key: ServiceKey) -> Registration<Service> {
        let (replaced, freed) = registry.withLock { registry in
            retireSnapshot(&registry)
            return (registry.table.insert(registration, for: key), reclaimSnapshots(&registry))
        }
        // The instance the replaced registration kept is let go now, outside the lock, and it
        // keeps none from now on. Resolves in flight may still use the registration itself: it
        // goes with the last snapshot holding it, once they have ended. Snapshots no resolve can
        // read any more go here, outside the lock, with the registrations only they held.
        replaced?.retire()
        withExtendedLifetime(freed) {}
        return registration
    }

    /// Registers an existing instance of `service`, shared by every resolve (``Scope/container``).
    ///
    /// The container hands the instance out as it is: it does not fill in its ``Inject``
    /// properties, since the app may already share it. To have them resolved from this container,
    /// call ``autoInject(into:)`` on it before registering it.
    @discardableResult
    public func register<Service: Sendable>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        instance: Service,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Registration<Service> {
        let registration = Registration<Service>(
            description: ServiceDescription(Service.self, name: name, arguments: Void.self),
            location: Self.location(file, line),
            owner: self,
            autoInjects: false,
            factory: FactoryBox<Service> { _ in instance }
        )
        return add(registration, for: ServiceKey(Service.self, name: name, arguments: Void.self)).inScope(.container)
    }

    // MARK: Resolving

    /// Resolves `service` registered under `name` with runtime `arguments`.
    ///
    /// A `.container` singleton that already exists is returned without taking any lock;
    /// everything else goes through a resolution that tracks the graph and the path.
    ///
    /// - Throws: ``ResolutionError`` describing what is missing, the cycle found, or the error a
    ///   factory threw, with the resolution path and where each service was registered.
    @inlinable
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        do {
            return try resolveOnce(service, name: name, arguments: repeat each arguments)
        } catch  where error.isRetryable {
            return try retryAfterDeadlock(error) { () throws(ResolutionError) in
                try resolveOnce(service, name: name, arguments: repeat each arguments)
            }
        }
    }

    /// Resolves every registration of `service` that takes no arguments, here and in the parent
    /// chain (a name registered here hides the parent's), unnamed first, then by name.
    public func resolveAll<Service>(_ service: Service.Type = Service.self) throws(ResolutionError) -> [Service] {
        var names: [String?] = []
        var container: Container? = self
        while let current = container {
            for name in current.localNames(of: Service.self) where !names.contains(name) {
                names.append(name)
            }
            container = current.parent
        }
        names.sort { ($0 ?? "") < ($1 ?? "") || ($0 == nil && $1 != nil) }
        var instances: [Service] = []
        for name in names {
            instances.append(try resolve(Service.self, name: name))
        }
        return instances
    }

    /// Descriptions of what is registered in this container itself (not its parents), such as
    /// `Animal (name: "dog") at App.swift:12`, sorted.
    public var localRegistrations: [String] {
        registry.withLock { $0.table.entries.map(\.registration.summary) }.sorted()
    }

    // MARK: Lifetimes

    /// Drops every instance kept by the ``Scope/container`` and ``Scope/weak`` scopes here;
    /// the next resolve creates new ones.
    public func resetScopedInstances() {
        for (_, registration) in registry.withLock(\.table.entries) {
            registration.resetKeptInstance()
        }
    }

    /// Drops the kept instances of registrations whose strategy is ``ReinitializeStrategy/reCreate``
    /// and keeps those marked ``ReinitializeStrategy/reUse``.
    public func reinitialize() {
        for (_, registration) in registry.withLock(\.table.entries) where registration.reinitializeStrategy == .reCreate
        {
            registration.resetKeptInstance()
        }
    }

    // MARK: Describing registrations

    /// Descriptions of the registrations of one service type, here and in the parent chain.
    func registrations(of service: ObjectIdentifier) -> [String] {
        let local = registry.withLock { registry in
            registry.table.entries.filter { $0.key.service == service }.map(\.registration.summary)
        }
        return local.sorted() + (parent?.registrations(of: service) ?? [])
    }

    private func localNames<Service>(of _: Service.Type) -> [String?] {
        let service = ObjectIdentifier(Service.self)
        let noArguments = ObjectIdentifier(Void.self)
        return registry.withLock { registry in
            registry.table.entries.map(\.key).filter { $0.service == service && $0.arguments == noArguments }.map(
                \.name)
        }
    }
}
