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

    /// Creates an empty container, optionally falling back to `parent`'s registrations.
    public init(parent: Container? = nil) {
        self.parent = parent
    }

    // MARK: Registering

    /// Registers `factory` for `service` under `name`; it receives a resolver and the runtime
    /// arguments, whose types become part of the key.
    ///
    /// Registering the same service, name and argument types again replaces the registration,
    /// which is how a test overrides a service. The registration takes effect when the statement
    /// ends, with the refinements chained to it (``Registration``).
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
            factory: .sync(FactoryBox<Service> { _ in instance }), autoInjects: false
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
        // Typed here, where `Service` is known; the engine behind `resolve(_:_:_:factory:)` is not.
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        let first = firstLook(key)
        if case .kept(let box) = first { return unsafeDowncast(box, to: Kept<Service>.self).instance }
        var made: Service?
        let found = try resolve(key, first, ArgumentValues.of(repeat each arguments)) { binding, resolution in
            let factory = unsafeDowncast(binding.syncBox, to: FactoryBox<Service, repeat each Argument>.self)
            let instance = try factory.make(resolution, repeat each arguments)
            made = instance
            return instance
        }
        switch found {
        case .kept(let box): return unsafeDowncast(box, to: Kept<Service>.self).instance
        case .made: return made.unsafelyUnwrapped
        case .instance(let instance): return instance as! Service
        case .unregistered: return try resolveUnregistered(Service.self, name: name, arguments: repeat each arguments)
        }
    }

    // `T?`, chosen over the function above where the call site names an `Optional` type: where no
    // `Optional` is registered in the chain, the resolve of `T`, with its shortcuts. Hidden from
    // the documentation: to a caller it is the function above.
    @inlinable @_documentation(visibility: internal)
    public func resolve<Wrapped, each Argument>(
        _ service: Wrapped?.Type,
        name: String? = nil,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Wrapped? {
        guard !registersOptionals else {
            return try resolveAsAnyService(Wrapped?.self, name: name, arguments: repeat each arguments)
        }
        return try Wrapped?.resolveWrapped(from: self, name: name, arguments: repeat each arguments)
    }

    /// The resolve of any `Service`, `Optional` or not, for the function above.
    @inlinable
    func resolveAsAnyService<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        try resolve(Service.self, name: name, arguments: repeat each arguments)
    }

    /// What the first look of a resolve finds: one lookup, one read of the entry, no resolve state.
    @usableFromInline
    enum FirstLook {
        /// The `Kept<Service>` box of the instance kept strongly: the resolve's answer.
        case kept(AnyObject)
        /// The registration, in `entry`: to be made.
        case binding(Binding, RegistryEntry)
        case unregistered
        /// An observed resolve (a trace, a dry run) runs on this thread: no shortcut.
        case observed
    }

    /// The first look of a resolve of `key` from here.
    @usableFromInline
    func firstLook(_ key: ServiceKey) -> FirstLook {
        guard !isTraced, !ResolvingThread.isObserving else { return .observed }
        guard let entry = entry(for: key) else { return .unregistered }
        let (box, binding) = entry.firstLook()
        if let box { return .kept(box) }
        return .binding(binding!, entry)
    }

    /// A top-level resolve of the registration under `key`, after its first look.
    @usableFromInline
    func resolve(
        _ key: ServiceKey,
        _ first: FirstLook,
        _ values: ArgumentValues?,
        factory: (Binding, Resolution) throws -> Any
    ) throws(ResolutionError) -> Found {
        switch first {
        case .kept(let box): return .kept(box)
        case .unregistered: return .unregistered
        case .observed:
            return try topLevel(describing: self.lookUp(key)?.0.read().binding?.step.service) {
                resolve, frame throws(ResolutionError) in
                try resolve.resolve(key, values, from: self, at: frame, factory: factory)
            }
        case .binding(let binding, let entry):
            // A shared instance is kept by the container that has the registration.
            let owner = binding.isShared ? lookUp(key)?.1 ?? self : self
            return try topLevel(makesOne: true, describing: binding.step.service) {
                resolve, frame throws(ResolutionError) in
                // Nested, through its task, in a traced resolve or a dry run: observed as well.
                if resolve.isObserved {
                    return try resolve.resolve(key, values, from: self, at: frame, factory: factory)
                }
                return try resolve.make(binding, keptIn: entry, by: owner, from: self, at: frame, values, factory)
            }
        }
    }

    /// A top-level resolve of `Service`, which is registered nowhere in the chain.
    @usableFromInline
    func resolveUnregistered<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        try topLevel { resolve, frame throws(ResolutionError) in
            try resolve.unregistered(Service.self, name: name, arguments: repeat each arguments, from: self, at: frame)
        }
    }

    /// Runs `body` as a top-level resolve from this container — unless `nested` is `false`, nested
    /// in the resolve of the frame whose factory runs on this thread, or else of the async factory
    /// or completion this task runs — then finishes it (completions, publication), or undoes it if
    /// anything throws.
    func topLevel<Result>(
        nested: Bool = true,
        makesOne: Bool = false,
        describing service: @autoclosure () -> String? = nil,
        findings: DryRunFindings? = nil,
        inheriting graph: GraphRecord? = nil,
        _ body: (Resolve, Frame?) throws(ResolutionError) -> Result
    ) throws(ResolutionError) -> Result {
        var entry = nested ? ResolvingThread.current.innermost : nil
        // In an async factory: nested in its resolve, but blocking, as a synchronous call is.
        let blocks = nested && entry == nil
        if blocks { entry = Resolve.taskFrame }
        let resolve = Resolve(
            self, entry: entry, isAsync: false, blocks: blocks, makesOne: makesOne, findings: findings,
            inheriting: graph)
        do {
            let result = try body(resolve, resolve.entry)
            try resolve.finish(describing: service() ?? "\(Result.self)")
            return result
        } catch {
            resolve.fail()
            throw error
        }
    }

    /// Resolves every registration of `service` that takes no arguments, here and in the parent
    /// chain (a name registered here hides the parent's), unnamed first, then by name.
    public func resolveAll<Service>(_ service: Service.Type = Service.self) throws(ResolutionError) -> [Service] {
        var names: [String?] = []
        var container: Container? = self
        while let current = container {
            let keys = current.registry.entries.map(\.key).filter {
                $0.service == ObjectIdentifier(Service.self) && $0.arguments == ObjectIdentifier(Void.self)
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
        reset { _ in true }
    }

    /// Drops the instances kept here by `scope` — a session scope's on sign-out, say; the next
    /// resolve creates new ones.
    ///
    /// ```swift
    /// container.resetScopedInstances(in: .session)
    /// ```
    public func resetScopedInstances(in scope: SharedScope) {
        reset { $0.scope == .shared(scope) }
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
        guard let entry = registry.entry(for: key), entry.read().binding?.isShared == true else { return }
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

    /// Drops the instances kept for the registrations `matching` says; an instance being made for
    /// one is not kept. They go here, with no lock held.
    private func reset(_ matching: (Binding) -> Bool) {
        let entries = registry.entries.compactMap { _, entry in
            entry.read().binding.map { (binding: $0, entry: entry) }
        }
        // Registrations forwarding to others last (``resetScopedInstance(of:name:arguments:)``).
        for (binding, entry) in entries.filter({ $0.binding.forwarding == nil })
            + entries.filter({ $0.binding.forwarding != nil })
        where binding.isShared && matching(binding) {
            withExtendedLifetime(entry.reset()) {}
        }
    }

    /// Files `binding` under `key`, then the registrations that reach it under other types — the
    /// `forwards` declared now and those declared before, made again from `binding` so that they
    /// take its scope — each under its key: a resolve sees the old registration or the new one
    /// under each. What the replaced ones held goes here, with no lock held.
    ///
    /// Lock order: `forwarders`, then the registry's locks. (Held across: two statements
    /// registering the same key do not interleave their forwarding registrations.)
    func register(
        _ binding: Binding, for key: ServiceKey,
        forwardedFrom forwards: [(key: ServiceKey, binding: @Sendable (Binding) -> Binding)]
    ) {
        let released = forwarders.withLock { forwarders -> [Any?] in
            var released = [registry.register(binding, for: key)]
            for forward in forwards { forwarders[key, default: [:]][forward.key] = forward.binding }
            for (forwardKey, make) in forwarders[key] ?? [:] {
                let current = registry.entry(for: forwardKey)?.read().binding
                guard current?.forwarding == key || forwards.contains(where: { $0.key == forwardKey }) else {
                    forwarders[key]?[forwardKey] = nil  // Registered since as something else.
                    continue
                }
                released.append(registry.register(make(binding), for: forwardKey))
            }
            return released
        }
        withExtendedLifetime(released) {}
    }

    /// Drops what the registrations forwarding to `key` keep; returns it, to be let go with no lock
    /// held.
    private func resetForwarders(of key: ServiceKey) -> [Any?] {
        let keys = forwarders.withLock { $0[key]?.keys.map { $0 } ?? [] }
        return keys.compactMap { forwardKey in
            guard let entry = registry.entry(for: forwardKey), entry.read().binding?.forwarding == key else {
                return nil
            }
            return entry.reset()
        }
    }

    // MARK: Looking up

    /// Whether an `Optional` type is registered here or in the parent chain: then a resolve of `T?`
    /// looks for that registration first.
    @usableFromInline
    var registersOptionals: Bool {
        registry.holdsOptionals || parent?.registersOptionals == true
    }

    /// Whether a resolve of `service` under `name` with `arguments` from here has something to
    /// make: a registration in the chain, an `Optional`, or a ``Lazy`` or ``Provider`` of a
    /// service it provides. (A dry run also counts what only the checked child registers:
    /// ``Resolve/provides(_:name:arguments:from:at:)``.)
    @usableFromInline
    func provides(_ service: any Any.Type, name: String?, arguments: any Any.Type) -> Bool {
        if entry(for: ServiceKey(erased: service, name: name, arguments: arguments)) != nil { return true }
        if service is any OptionalService.Type { return true }
        guard arguments == Void.self, let deferred = service as? any DeferredService.Type else { return false }
        return provides(deferred.deferred, name: name, arguments: Void.self)
    }

    /// The entry for `key` here or in the parent chain.
    func entry(for key: ServiceKey) -> RegistryEntry? {
        registry.entry(for: key) ?? parent?.entry(for: key)
    }

    /// The entry for `key` here or in the parent chain, with the container that has it.
    func lookUp(_ key: ServiceKey) -> (RegistryEntry, Container)? {
        var container = self
        while true {
            if let entry = container.registry.entry(for: key) { return (entry, container) }
            guard let parent = container.parent else { return nil }
            container = parent
        }
    }

    /// The registrations of this container itself.
    var bindings: [Binding] {
        registry.entries.compactMap { $0.entry.read().binding }
    }

    /// Descriptions of the registrations of one service type, here and in the parent chain.
    func registrations(of service: ObjectIdentifier) -> [String] {
        let local = registry.entries.filter { $0.key.service == service }.compactMap {
            $0.entry.read().binding?.summary
        }
        return local.sorted() + (parent?.registrations(of: service) ?? [])
    }

    /// `File.swift:12`, for the registration made at `file` and `line`.
    static func location(_ file: StaticString, _ line: UInt) -> String {
        "\(String(describing: file).split(separator: "/").last ?? ""):\(line)"
    }
}
