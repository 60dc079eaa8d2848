/// A service being registered in a ``Container``, refined by chaining.
///
/// ```swift
/// container.register(ChildProtocol.self) { _ in Child() }
///     .inScope(.graph)
///     .initCompleted { resolver, child in
///         child.parent = try resolver.resolve(ParentProtocol.self)
///     }
/// ```
///
/// The registration takes effect when `register` returns, and each refinement replaces it at
/// once, whole: a resolve sees it before a refinement or after, never half-applied. So a
/// `Registration` may be kept in a variable and refined later, as Swinject users write it:
///
/// ```swift
/// let registration = container.register(Database.self) { _ in Database() }
/// registration.inScope(.container)
/// let database = try container.resolve(Database.self)  // the singleton
/// ```
///
/// A refinement applies only while the registration is still the one under its key: once the
/// service is registered again, refining the old `Registration` changes nothing.
///
/// > Important: A resolve on another thread that races the `register` statement itself may see
/// > the registration before a refinement of that statement (a `.graph` instance where the
/// > statement goes on to say `.container`). Register before you share the container, as with
/// > every container.
public final class Registration<Service>: Sendable {
    struct Draft {
        var scope = ScopeKind.graph
        var completions: [Binding.Completion] = []
        var reinitializeStrategy = ReinitializeStrategy.reCreate
        /// The registrations under other types (``implements(_:as:)``), each made from this one.
        var forwards: [(key: ServiceKey, binding: @Sendable (Binding) -> Binding)] = []
        /// The binding filed last, while it is the key's.
        var filed: Binding?
        /// Whether another registration of the key replaced it: it is not filed again.
        var isReplaced = false
    }

    private let container: Container
    private let key: ServiceKey
    private let description: ServiceDescription
    private let location: String
    private let assembly: String?
    private let factory: Binding.Factory
    /// Whether it registers an instance the app handed over, as it is: the container fills in
    /// none of its `@Inject` properties, and ``Container/reinitialize()`` hands out the same one.
    private let isInstance: Bool
    private let forwarding: any Forwarder<Service>
    private let declared: (key: ServiceKey, isDefault: Bool)?
    private let draft: Locked<Draft>

    convenience init<each Argument>(
        in container: Container,
        name: String?,
        arguments: (repeat each Argument).Type,
        file: StaticString,
        line: UInt,
        factory: Binding.Factory,
        isInstance: Bool = false
    ) {
        self.init(
            in: container, key: ServiceKey(Service.self, name: name, arguments: arguments),
            description: ServiceDescription(Service.self, name: name, arguments: arguments),
            location: Container.location(file, line), forwarding: Forwarding<Service, repeat each Argument>(name: name),
            factory: factory, isInstance: isInstance)
    }

    /// Files a registration of `factory` under `key`, as `draft` says — if `onlyIfAbsent`, only if
    /// `container` has none under `key` (else this registration is inert); `declared` is a
    /// declared service's key, and whether this is its default.
    init(
        in container: Container,
        key: ServiceKey,
        description: ServiceDescription,
        location: String,
        forwarding: any Forwarder<Service>,
        factory: Binding.Factory,
        isInstance: Bool = false,
        draft: Draft = Draft(),
        onlyIfAbsent: Bool = false,
        declared: (key: ServiceKey, isDefault: Bool)? = nil
    ) {
        self.container = container
        self.key = key
        self.description = description
        self.location = location
        assembly = Container.assembling
        self.factory = factory
        self.isInstance = isInstance
        self.forwarding = forwarding
        self.declared = declared
        self.draft = Locked(draft)
        refine(onlyIfAbsent: onlyIfAbsent) { _ in }
    }

    /// Applies `change` to the registration and files it anew, in place of the one this
    /// registration filed last — unless the key has since been registered again (or, the first
    /// time, `onlyIfAbsent` and the key is registered). What the replaced binding held goes after
    /// the lock.
    @discardableResult
    private func refine(onlyIfAbsent: Bool = false, _ change: (inout Draft) -> Void) -> Self {
        let released = draft.withLock { draft -> [Any?] in
            guard !draft.isReplaced else { return [] }
            change(&draft)
            let binding = Binding(
                Service.self,
                description: description,
                location: location,
                assembly: assembly,
                scope: draft.scope,
                factory: factory,
                completions: draft.completions,
                reinitializeStrategy: draft.reinitializeStrategy,
                autoInjects: !isInstance,
                declared: declared,
                isInstance: isInstance
            )
            let (filed, released) = container.file(
                binding, for: key, forwardedFrom: draft.forwards, replacing: draft.filed, onlyIfAbsent: onlyIfAbsent)
            draft.filed = binding
            draft.isReplaced = !filed
            return released
        }
        withExtendedLifetime(released) {}
        return self
    }

    /// Makes the registration reachable under `type` too, with the same name and argument types:
    /// resolving `type` resolves this registration and converts its instance with `convert`,
    /// which is `{ $0 }` — there so that the compiler checks that `Service` is a `type`.
    ///
    /// ```swift
    /// container.register(FileStore.self) { _ in FileStore() }
    ///     .inScope(.container)
    ///     .implements((any Reading).self) { $0 }
    ///     .implements((any Writing).self) { $0 }
    /// let reader = try container.resolve((any Reading).self)  // the one FileStore
    /// ```
    ///
    /// A shared scope's instance is the same under every type. The registration under `type`
    /// takes this one's scope and reinitialize strategy, replaces a registration of `type` under
    /// that name and argument types (and is replaced by one), and shows in errors, the trace,
    /// `verify()` and the dependency graph as `type` at this registration's location
    /// `via` `Service`, followed by this registration — or, for a ``Scope/transient`` one, which
    /// shares nothing, alone: it calls the factory and `initCompleted` closures itself. Resetting this registration's instance resets the ones it is kept under.
    /// Forwarding to the service's own type does nothing.
    ///
    /// A shared instance is built from, and kept by, the container of the registration: a child
    /// container that registers `Service` again, and not `type`, gets its own instance under
    /// `Service` and the parent's under `type`. Register the forwarding in the child too.
    @discardableResult
    public func implements<Forwarded>(
        _ type: Forwarded.Type,
        as convert: @escaping @Sendable (Service) -> Forwarded
    ) -> Self {
        let (forwarding, key) = (forwarding, key)
        guard forwarding.key(type) != key else { return self }  // Its own type: nothing to forward.
        return refine {
            $0.forwards.append(
                (forwarding.key(type), { forwarding.binding(type, convert, to: $0, forwarding: key) }))
        }
    }

    /// Sets how long resolved instances are reused; ``Scope/graph`` by default.
    ///
    /// ``Scope/container``, ``Scope/weak`` and the scopes of a ``SharedScope`` share one instance
    /// between threads, so they are available only for `Sendable` services.
    @discardableResult
    public func inScope(_ scope: Scope<Service>) -> Self {
        refine { $0.scope = scope.kind }
    }

    /// Sets what ``Container/reinitialize()`` does with the cached instance;
    /// ``ReinitializeStrategy/reCreate`` by default.
    @discardableResult
    public func reinitialize(_ strategy: ReinitializeStrategy) -> Self {
        refine { $0.reinitializeStrategy = strategy }
    }

    /// Adds a closure that completes each new instance after the whole object graph it belongs
    /// to is created: the place to inject properties that close a circular dependency.
    ///
    /// It runs once the outermost factory of the current `resolve` has returned, so that every
    /// graph-scoped instance of that graph exists and is reused:
    ///
    /// ```swift
    /// container.register(ParentProtocol.self) { r in Parent(child: try r.resolve(ChildProtocol.self)) }
    /// container.register(ChildProtocol.self) { _ in Child() }
    ///     .initCompleted { r, child in child.parent = try r.resolve(ParentProtocol.self) }
    /// ```
    ///
    /// Several closures all run, in the order they were added. A shared instance (``Scope/container``,
    /// ``Scope/weak``) is shared with other threads only after all of them have succeeded; if one
    /// throws, the whole resolve fails and nothing it created is kept.
    @discardableResult
    public func initCompleted(_ completion: @escaping @Sendable (Resolution, Service) throws -> Void) -> Self {
        refine { $0.completions.append(.sync { r, instance in try completion(r, instance as! Service) }) }
    }

    /// Adds a closure that completes each new instance asynchronously, after the whole object
    /// graph it belongs to is created, like ``initCompleted(_:)-((Resolution,Service)->Void)``.
    ///
    /// ```swift
    /// container.register(Catalog.self) { r in await Catalog.open() }
    ///     .inScope(.container)
    ///     .initCompleted { r, catalog in await catalog.warm(with: try await r.resolve(Cache.self)) }
    /// ```
    ///
    /// Only an async resolve can run it: a registration with an async `initCompleted` closure can
    /// only be resolved with `try await container.resolveAsync(…)`; a synchronous resolve of it
    /// throws ``ResolutionError/Kind-swift.enum/needsAsyncResolve``.
    @discardableResult
    public func initCompleted(_ completion: @escaping @Sendable (AsyncResolution, Service) async throws -> Void)
        -> Self
    {
        refine { $0.completions.append(.async { r, instance in try await completion(r, instance as! Service) }) }
    }
}
