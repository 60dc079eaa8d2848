import Synchronization

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

    /// The registrations, with the instances their scopes keep.
    let registry = Registry()

    /// For each key, the registrations forwarding to it (``Registration/implements(_:as:)``): each
    /// one's key, and how to make it from the registration under the key. A forwarding key may
    /// since have been registered again as something else: then it forwards no more.
    let forwarders = Locked<[ServiceKey: [ServiceKey: @Sendable (Binding) -> Binding]]>([:])

    /// The tracer set with ``resolutionTrace``.
    let tracer = Locked<ResolutionTracer?>(nil)
    /// Whether resolves started here are traced: read, relaxed, by every top-level resolve.
    let isTracing = Atomic<Bool>(ResolutionTracer.environment != nil)

    /// Whether the first use of a declared service here or in a child registers its default
    /// here (``RegisteredWith``): a container without a parent does, and a test's own container
    /// (`TraitInjectionTesting`), so that tests keep their instances apart.
    let keepsDeclaredDefaults: Bool

    /// Creates an empty container, optionally falling back to `parent`'s registrations.
    public init(parent: Container? = nil) {
        self.parent = parent
        keepsDeclaredDefaults = parent == nil
    }

    /// A container that keeps the defaults of the declared services first used in it or its
    /// children, though it has a parent: a test's own `Container.shared`.
    package init(parent: Container?, keepingDeclaredDefaults: Bool) {
        self.parent = parent
        keepsDeclaredDefaults = keepingDeclaredDefaults || parent == nil
    }

    /// Where a declared service's default goes when it is first used here: this container, or
    /// the nearest parent that keeps declared defaults.
    var declaredDefaultsHome: Container {
        var container = self
        while !container.keepsDeclaredDefaults, let parent = container.parent { container = parent }
        return container
    }

    // MARK: Registering

    /// Registers `factory` for `service` under `name`; it receives a resolver and the runtime
    /// arguments, whose types become part of the key.
    ///
    /// Registering the same service, name and argument types again replaces the registration,
    /// which is how a test overrides a service. The registration takes effect when this returns;
    /// each refinement of the ``Registration`` replaces it whole when that returns.
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
        Registration(
            in: self, name: name, arguments: (repeat each Argument).self, file: file, line: line,
            factory: .sync(FactoryBox(factory)))
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
        Registration(
            in: self, name: name, arguments: Void.self, file: file, line: line,
            factory: .sync(FactoryBox<Service> { _ in instance }), isInstance: true
        )
        .inScope(.container)
    }

    // MARK: Resolving

    /// Resolves `service` registered under `name` with runtime `arguments`.
    ///
    /// A ``Scope/container`` instance that already exists is returned after one lookup; everything
    /// else goes through a resolution that tracks the graph and the path.
    ///
    /// - Throws: ``ResolutionError`` describing what is missing, the cycle found, or the error a
    ///   factory threw, with the resolution path and where each service was registered.
    @inlinable
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        try resolveService(Service.self, name: name, arguments: repeat each arguments)
    }

    // `T?`, chosen over the function above where the call site names an `Optional` type: where no
    // `Optional` is registered in the chain, the resolve of `T` — `nil` if nothing provides it.
    // Hidden from the documentation: to a caller it is the function above.
    @inlinable @_documentation(visibility: internal)
    public func resolve<Wrapped, each Argument>(
        _ service: Wrapped?.Type,
        name: String? = nil,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Wrapped? {
        if !registersOptionals, let found = try find(Wrapped.self, name: name, arguments: repeat each arguments) {
            return found
        }
        return try resolveService(Wrapped?.self, name: name, arguments: repeat each arguments)
    }

    /// Resolves every registration of `service` that takes no arguments, here and in the parent
    /// chain (a name registered here hides the parent's), unnamed first, then by name.
    public func resolveAll<Service>(_ service: Service.Type = Service.self) throws(ResolutionError) -> [Service] {
        var names: [String?] = []
        var container: Container? = self
        while let current = container {
            let keys = current.registry.entries.map(\.key).filter {
                $0.service == ObjectIdentifier(Service.self) && $0.arguments == ObjectIdentifier(Void.self)
                    && !$0.isDeclared
            }
            for key in keys where !names.contains(key.name) { names.append(key.name) }
            container = current.parent
        }
        names.sort { ($0 ?? "") < ($1 ?? "") || ($0 == nil && $1 != nil) }
        var instances: [Service] = []
        for name in names {
            instances.append(try resolve(Service.self, name: name))
        }
        return instances
    }

    /// Whether `service` is registered under `name` with these argument types, here or in the
    /// parent chain: to register a default unless the app did, or to assert in a test.
    ///
    /// ```swift
    /// if !container.hasRegistration(Analytics.self) {
    ///     container.register(Analytics.self) { _ in NoAnalytics() }
    /// }
    /// container.hasRegistration(Greeter.self, arguments: String.self, Int.self)
    /// ```
    ///
    /// Only registrations count: `T?`, `Lazy<T>` and `Provider<T>` resolve without one, and have
    /// none.
    public func hasRegistration<Service, each Argument>(
        _ service: Service.Type,
        name: String? = nil,
        arguments: repeat (each Argument).Type
    ) -> Bool {
        entry(for: ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)) != nil
    }

    /// Descriptions of what is registered in this container itself (not its parents), such as
    /// `Animal (name: "dog") at App.swift:12`, sorted.
    public var localRegistrations: [String] {
        bindings.map(\.summary).sorted()
    }

    // MARK: Lifetimes

    /// Drops every instance kept by a shared scope here (``Scope/container``, ``Scope/weak`` and
    /// an app's ``SharedScope``s); the next resolve creates new ones.
    ///
    /// A parent's instances stay: the parent shares them with its other children and the rest of
    /// the app, which a child has no say over. Call it on the parent to reset those.
    public func resetScopedInstances() {
        reset { $0.scope.isReached(byResetOf: nil) }
    }

    /// Drops the instances kept here by `scope` — a session scope's on sign-out, say; the next
    /// resolve creates new ones.
    ///
    /// ```swift
    /// container.resetScopedInstances(in: .session)
    /// ```
    public func resetScopedInstances(in scope: SharedScope) {
        reset { $0.scope.isReached(byResetOf: scope) }
    }

    /// Drops the instance kept here for `service` under `name` with these argument types, if its
    /// scope keeps one; the next resolve creates a new one. Other services keep theirs.
    ///
    /// ```swift
    /// container.resetScopedInstance(of: TokenStore.self)  // a new store on the next resolve
    /// ```
    ///
    /// Like ``resetScopedInstances()``, it reaches the instances this container keeps, for its own
    /// registrations: a parent's are shared by its other children and the rest of the app, so
    /// reset those on the parent itself.
    public func resetScopedInstance<Service, each Argument>(
        of service: Service.Type,
        name: String? = nil,
        arguments: repeat (each Argument).Type
    ) {
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        guard let entry = registry.entry(for: key), entry.read().binding.isShared else { return }
        // The instance first, then what the registrations forwarding to it keep of it: a resolve
        // between the two finds the forwarded one still kept, or makes it from a new instance.
        let released = [entry.reset()] + resetForwarders(of: key)
        withExtendedLifetime(released) {}
    }

    /// Drops the kept instances of registrations whose strategy is ``ReinitializeStrategy/reCreate``
    /// and keeps those marked ``ReinitializeStrategy/reUse``.
    public func reinitialize() {
        reset { $0.reinitializeStrategy == .reCreate }
    }

    /// `File.swift:12`, for the registration made at `file` and `line`.
    static func location(_ file: some CustomStringConvertible, _ line: UInt) -> String {
        "\(String(describing: file).split(separator: "/").last ?? ""):\(line)"
    }
}
