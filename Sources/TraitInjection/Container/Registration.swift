public import Synchronization

/// A service registered in a ``Container``, refined by chaining.
///
/// ```swift
/// container.register(ChildProtocol.self) { _ in Child() }
///     .inScope(.graph)
///     .initCompleted { resolver, child in
///         child.parent = try resolver.resolve(ParentProtocol.self)
///     }
/// ```
///
/// Refine a registration right after registering it; its settings are read on every resolve.
public final class Registration<Service>: Sendable {
    /// A closure that completes an instance once its object graph exists.
    @usableFromInline
    typealias Completion = @Sendable (Resolution, Service) throws -> Void
    /// A closure that completes an instance asynchronously.
    typealias AsyncCompletion = @Sendable (AsyncResolution, Service) async throws -> Void

    struct Configuration {
        var reinitializeStrategy: ReinitializeStrategy = .reCreate
        var completions: [Completion] = []
        var asyncCompletions: [AsyncCompletion] = []
    }

    /// The service, name and argument types, for errors and listings.
    let description: ServiceDescription
    /// Where `register` was called, as `File.swift:12`.
    let location: String
    /// The ``Assembly`` whose `assemble(into:)` made this registration, if any, by its type name.
    let assembly: String?
    /// The factory, as a `FactoryBox<Service, repeat each Argument>`, or an
    /// `AsyncFactoryBox<Service, repeat each Argument>` if `isolation` is `.async`.
    @usableFromInline
    let factory: any AnyObject & Sendable
    /// Whether the factory awaits or is isolated to the main actor.
    @usableFromInline
    let isolation: FactoryIsolation
    /// For a main-actor factory: a `MainActorHop<Service, repeat each Argument>`, with which an
    /// async resolve runs it on the main actor.
    let mainActorHop: (any AnyObject & Sendable)?
    /// For a registration only an async resolve can make (`needsAsyncResolve`): the instance kept
    /// by the `.container` and `.weak` scopes, which tasks wait for by suspending.
    @usableFromInline
    let asyncCell = AsyncInstanceCell<Service>()
    /// The container this was registered in: instances it keeps are built from its registrations.
    ///
    /// Not retained (a container keeps its registrations); only read while a resolve that found
    /// this registration through the container, or one of its children, is running.
    @usableFromInline
    unowned(unsafe) let owner: Container
    /// Whether the factory takes runtime arguments.
    @usableFromInline
    let takesArguments: Bool
    /// Whether the container fills in the `@Inject` properties of the instances it makes: not for
    /// an instance the app handed over with `register(instance:)`.
    @usableFromInline
    let autoInjects: Bool
    let configuration: Locked<Configuration>
    /// The scope, in an atomic so that a resolve reads it without a lock.
    @usableFromInline
    let scopeCode = Atomic<UInt8>(ScopeKind.graph.rawValue)
    /// Whether `configuration` holds an `initCompleted` closure, read without a lock.
    @usableFromInline
    let completes = Atomic<Bool>(false)
    /// Whether `configuration` holds an async `initCompleted` closure, read without a lock.
    @usableFromInline
    let completesAsync = Atomic<Bool>(false)
    /// The instance kept by the `.container` and `.weak` scopes.
    @usableFromInline
    let cell: InstanceCell<Service>
    /// Which instances need no auto-injection of `@Inject` properties (PropertyWrappers/).
    @usableFromInline
    let autoInjection = AutoInjectionCache()

    @inlinable
    var scope: ScopeKind { ScopeKind(rawValue: scopeCode.load(ordering: .relaxed)) ?? .graph }

    /// Whether an `initCompleted` closure is set, read without a lock.
    @inlinable
    var hasCompletion: Bool { completes.load(ordering: .acquiring) }

    /// The `initCompleted` closures, in the order they were added.
    @usableFromInline
    var completions: [Completion] {
        configuration.withLock { $0.completions }
    }

    /// Whether only an async resolve can make an instance: the factory or an `initCompleted`
    /// closure awaits.
    @inlinable @inline(__always)
    var needsAsyncResolve: Bool { isolation == .async || completesAsync.load(ordering: .acquiring) }

    init(
        description: ServiceDescription,
        location: String,
        owner: Container,
        autoInjects: Bool,
        factory: any AnyObject & Sendable,
        isolation: FactoryIsolation = .none,
        mainActorHop: (any AnyObject & Sendable)? = nil
    ) {
        self.description = description
        self.location = location
        assembly = Container.assembling
        self.owner = owner
        self.autoInjects = autoInjects
        self.factory = factory
        self.isolation = isolation
        self.mainActorHop = mainActorHop
        takesArguments = !description.arguments.isEmpty
        cell = InstanceCell(serviceDescription: "\(description) (\(location))")
        configuration = Locked.make(Configuration())
    }

    /// Sets how long resolved instances are reused; ``Scope/graph`` by default.
    ///
    /// ``Scope/container`` and ``Scope/weak`` share one instance between threads, so they are
    /// available only for `Sendable` services.
    @discardableResult
    public func inScope(_ scope: Scope<Service>) -> Self {
        scopeCode.store(scope.kind.rawValue, ordering: .relaxed)
        return self
    }

    /// Sets what ``Container/reinitialize()`` does with the cached instance;
    /// ``ReinitializeStrategy/reCreate`` by default.
    @discardableResult
    public func reinitialize(_ strategy: ReinitializeStrategy) -> Self {
        configuration.withLock { $0.reinitializeStrategy = strategy }
        return self
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
    /// Several closures all run, in the order they were added. A `.container` or `.weak` instance
    /// is shared with other threads only after all of them have succeeded; if one throws, the
    /// whole resolve fails and nothing it created is kept.
    @discardableResult
    public func initCompleted(_ completion: @escaping @Sendable (Resolution, Service) throws -> Void) -> Self {
        configuration.withLock { $0.completions.append(completion) }
        completes.store(true, ordering: .releasing)
        return self
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
    /// Only an async resolve can run it: add it to a registration with an async factory. A
    /// registration with a synchronous factory and an async `initCompleted` closure can only be
    /// resolved with `try await container.resolveAsync(…)`; a synchronous resolve of it throws
    /// ``ResolutionError/Kind-swift.enum/needsAsyncResolve``.
    @discardableResult
    public func initCompleted(_ completion: @escaping @Sendable (AsyncResolution, Service) async throws -> Void)
        -> Self
    {
        configuration.withLock { $0.asyncCompletions.append(completion) }
        completesAsync.store(true, ordering: .releasing)
        return self
    }

    /// The async `initCompleted` closures, in the order they were added.
    var asyncCompletions: [AsyncCompletion] {
        configuration.withLock { $0.asyncCompletions }
    }

    @usableFromInline
    var step: ResolutionError.Step {
        ResolutionError.Step(service: description.description, location: location, assembly: assembly)
    }
}

/// A factory with its exact argument types, so the resolver calls it without a dynamic cast.
@usableFromInline
final class FactoryBox<Service, each Argument>: Sendable {
    @usableFromInline
    let make: @Sendable (Resolution, repeat each Argument) throws -> Service

    init(_ make: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service) {
        self.make = make
    }

    @inlinable
    func callAsFunction(_ resolver: Resolution, _ arguments: repeat each Argument) throws -> Service {
        try make(resolver, repeat each arguments)
    }
}
