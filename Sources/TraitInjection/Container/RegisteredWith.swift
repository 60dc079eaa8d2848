/// A service declared as a computed property of ``Container``, with its default factory beside
/// its declaration: resolving it cannot fail for want of a registration, and a misspelled one
/// does not compile.
///
/// Declare a service in an extension of `Container`, calling the container with its default
/// factory; refine it as a registration; resolve it by calling the property:
///
/// ```swift
/// extension Container {
///     var database: Registered<Database> { self { _ in Database(path: "app.sqlite") }.inScope(.container) }
///     var profile: Registered<ProfileStore> { self { r in ProfileStore(database: try r.database()) } }
///     var greeter: RegisteredWith<String, Greeter> { self { _, greeting in Greeter(greeting) } }
/// }
///
/// let profile = try Container.shared.profile()
/// let greeter = try Container.shared.greeter("Hi")
/// ```
///
/// The first use of a declared service registers its default, exactly once however many threads
/// use it at once, unless the container or a parent has a registration of it: in the container
/// without a parent (or a test's own, with `TraitInjectionTesting`), so that child containers
/// share its instances and its overrides whichever uses it first. From then on it is a
/// registration like any other: every scope, `initCompleted`, runtime arguments, async
/// factories, parent containers, `.graph` instances shared with the services registered by type
/// in the same resolve. Errors, the trace, `verify()` and the dependency graph name
/// it by its property, `Container.database (Database)`, at the file and line of its declaration.
///
/// A factory resolves declared services through its resolver, `r.database()` as above, which
/// keeps them in its resolve's graph. `self` in a factory is the container the property was
/// read on; a factory that captures it keeps that container alive, as any registered closure
/// that captures its container does. In an async factory, `try await r.database.resolveAsync()`
/// is part of the resolve; a synchronous `try r.database()` there is a synchronous resolve from
/// the container, as `container.resolve` is, which does not share the resolve's `.graph`
/// instances.
///
/// Override it for a test or a preview with ``register(file:line:factory:)-(_,_,(Resolution,Argument)->Service)``; go
/// back to the default with ``reset()``:
///
/// ```swift
/// Container.shared.database.register { _ in InMemoryDatabase() }
/// Container.shared.database.reset()
/// ```
///
/// A service is keyed by its declaration, the place of its `self { … }` call: the same property
/// always resolves the same registration, and two properties of the same type are two services.
/// A function that returns a declaration declares one service, whoever calls it and with
/// whatever parameters: give each service its own property. A getter that returns one of two
/// declarations (branching on its container, say) declares two services, and a factory's
/// `r.database` looks first for a registration of the one a container of the library's own
/// reads, before it files the one the factory's container reads: branch inside the factory
/// instead.
public struct RegisteredWith<each Argument, Service> {
    @usableFromInline var declaration: Declaration<repeat each Argument, Service>
    /// Where it is resolved, registered and reset: the container the property was read on.
    @usableFromInline let container: Container

    @inlinable
    init(_ declaration: Declaration<repeat each Argument, Service>, in container: Container) {
        self.declaration = declaration
        self.container = container
    }

    // MARK: Resolving

    /// Resolves the service with runtime `arguments`, as ``Container/resolve(_:name:arguments:)``
    /// does a registered one; its first use in the container registers its default.
    ///
    /// - Throws: ``ResolutionError`` for a cycle (with the path), a factory's error, a deadlock,
    ///   or a service that needs an async resolve (``resolveAsync(_:)``) — never
    ///   ``ResolutionError/Kind-swift.enum/notRegistered``.
    @inlinable
    public func callAsFunction(_ arguments: repeat each Argument) throws(ResolutionError) -> Service {
        if let found = try container.find(Service.self, key: declaration.key, arguments: repeat each arguments) {
            return found
        }
        return try declaration.resolveFirst(from: container, filingIn: container, arguments: repeat each arguments)
    }

    /// Resolves the service with runtime `arguments` from async code, as
    /// ``Container/resolveAsync(_:name:arguments:)`` does a registered one: any factory, async,
    /// synchronous or main-actor.
    public func resolveAsync(_ arguments: repeat each Argument) async throws(ResolutionError) -> Service {
        try await declaration.resolveAsync(from: container, arguments: repeat each arguments)
    }

    /// The instance the service's scope keeps for this container now, if it keeps one: nothing
    /// is made or registered.
    ///
    /// ```swift
    /// if let database = Container.shared.database.resolvedOrNil() {
    ///     database.flush()  // only if something made it already
    /// }
    /// ```
    public func resolvedOrNil() -> Service? {
        guard let (entry, _) = container.lookUp(declaration.key) else { return nil }
        return entry.keptInstance as? Service
    }

    // MARK: Refining the default

    /// Sets how long the default's instances are reused, as ``Registration/inScope(_:)`` does;
    /// ``Scope/graph`` unless it says otherwise.
    @inlinable
    public consuming func inScope(_ scope: Scope<Service>) -> Self {
        declaration.refinements = declaration.refinements.scoped(scope.choice)
        return self
    }

    /// Adds a closure that completes each new instance once its object graph exists, as
    /// ``Registration/initCompleted(_:)-((Resolution,Service)->Void)`` does.
    @inlinable
    public consuming func initCompleted(_ completion: @escaping @Sendable (Resolution, Service) throws -> Void) -> Self
    {
        declaration.refinements = declaration.refinements.adding(
            .sync { r, instance in try completion(r, instance as! Service) })
        return self
    }

    /// Adds a closure that completes each new instance asynchronously, as
    /// ``Registration/initCompleted(_:)-((AsyncResolution,Service)->Void)`` does: only an async
    /// resolve (``resolveAsync(_:)``) can make the service then.
    @inlinable
    public consuming func initCompleted(
        _ completion: @escaping @Sendable (AsyncResolution, Service) async throws -> Void
    ) -> Self {
        declaration.refinements = declaration.refinements.adding(
            .async { r, instance in try await completion(r, instance as! Service) })
        return self
    }

    // MARK: Contexts

    /// Uses `factory` for the default in a test run (``RunContext/isTest``).
    ///
    /// ```swift
    /// var analytics: Registered<any Analytics> {
    ///     self { _ in LiveAnalytics() }.onTest { _ in NoAnalytics() }.onPreview { _ in NoAnalytics() }
    /// }
    /// ```
    ///
    /// When several contexts apply, an argument's factory wins, then a preview's, a test's, a
    /// debug build's.
    @inlinable
    public consuming func onTest(
        _ factory: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Self {
        when(RunContext.isTest, rank: 2, factory)
    }

    /// Uses `factory` for the default in a SwiftUI preview (``RunContext/isPreview``).
    @inlinable
    public consuming func onPreview(
        _ factory: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Self {
        when(RunContext.isPreview, rank: 3, factory)
    }

    /// Uses `factory` for the default in a debug build of the code that declares the service.
    @inlinable
    public consuming func onDebug(
        _ factory: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Self {
        when(_isDebugAssertConfiguration(), rank: 1, factory)
    }

    /// Uses `factory` for the default when the app was launched with `argument`
    /// (``RunContext/arguments``): `onArgument("mock-network") { _ in MockNetwork() }`.
    @inlinable
    public consuming func onArgument(
        _ argument: String,
        _ factory: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Self {
        when(RunContext.arguments.contains(argument), rank: 4, factory)
    }

    /// This declaration with `factory` as its default if `applies`, and no context of a higher
    /// `rank` chose one.
    @inlinable
    consuming func when(
        _ applies: Bool,
        rank: UInt8,
        _ factory: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Self {
        if applies, rank > declaration.site.contextRank {
            declaration.choose(factory, rank: rank)
        }
        return self
    }

    // MARK: Overriding

    /// Registers `factory` in place of the service's default in this container, until
    /// ``reset()``: how a test, a preview or a module overrides a declared service.
    ///
    /// ```swift
    /// Container.shared.database.register { _ in InMemoryDatabase() }
    /// ```
    ///
    /// The override keeps the declared scope and `initCompleted` closures; refine the returned
    /// ``Registration`` to change them (`.inScope(.transient)`). Like any registration, it is
    /// this container's: a child container's override is not seen by its parent, and a child
    /// without one resolves its parent's.
    @discardableResult
    public func register(
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        declaration.register(
            in: container, factory: .sync(FactoryBox(factory)), at: Container.location(file, line), onlyIfAbsent: false)
    }

    /// Registers an async `factory` in place of the service's default in this container, until
    /// ``reset()``, as ``register(file:line:factory:)-(_,_,(Resolution,Argument)->Service)``
    /// does a synchronous one.
    @discardableResult
    public func register(
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncResolution, repeat each Argument) async throws -> Service
    ) -> Registration<Service> {
        declaration.register(
            in: container, factory: .async(AsyncFactoryBox(factory)), at: Container.location(file, line),
            onlyIfAbsent: false)
    }

    /// Undoes an override of the service in this container, and drops the instance its scope
    /// kept here: the next resolve makes a new one from the default.
    ///
    /// In a child container, it undoes the child's override: the child resolves its parent's
    /// registration again, as if it had never had its own. ``Container/resetDeclaredServices()`` resets every declared service of
    /// a container.
    public func reset() {
        declaration.reset(in: container)
    }
}

extension RegisteredWith where Service: Sendable, repeat each Argument: Sendable {
    // MARK: Main-actor factories

    /// Uses the main-actor `factory` for the default in a test run, as ``onTest(_:)-((Resolution,Argument)->Service)`` does a
    /// synchronous one: a view model's stand-in.
    @inlinable
    public consuming func onTest(
        _ factory: @escaping @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Self {
        when(RunContext.isTest, rank: 2, mainActor: factory)
    }

    /// Uses the main-actor `factory` for the default in a SwiftUI preview.
    ///
    /// ```swift
    /// var profileModel: Registered<ProfileViewModel> {
    ///     self { @MainActor r in ProfileViewModel(store: try r.profile()) }
    ///         .onPreview { @MainActor _ in ProfileViewModel(store: .sample) }
    /// }
    /// ```
    @inlinable
    public consuming func onPreview(
        _ factory: @escaping @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Self {
        when(RunContext.isPreview, rank: 3, mainActor: factory)
    }

    /// Uses the main-actor `factory` for the default in a debug build of the code that declares
    /// the service.
    @inlinable
    public consuming func onDebug(
        _ factory: @escaping @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Self {
        when(_isDebugAssertConfiguration(), rank: 1, mainActor: factory)
    }

    /// Uses the main-actor `factory` for the default when the app was launched with `argument`.
    @inlinable
    public consuming func onArgument(
        _ argument: String,
        _ factory: @escaping @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Self {
        when(RunContext.arguments.contains(argument), rank: 4, mainActor: factory)
    }

    /// This declaration with the main-actor `factory` as its default if `applies`, and no
    /// context of a higher `rank` chose one.
    @inlinable
    consuming func when(
        _ applies: Bool,
        rank: UInt8,
        mainActor factory: @escaping @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Self {
        if applies, rank > declaration.site.contextRank {
            declaration.choose(mainActor: factory, rank: rank)
        }
        return self
    }

    /// Registers the main-actor `factory` in place of the service's default in this container,
    /// until ``reset()``: a preview's or a test's view model.
    ///
    /// ```swift
    /// Container.shared.profileModel.register { @MainActor _ in ProfileViewModel(store: .sample) }
    /// ```
    @discardableResult
    public func register(
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        declaration.register(
            in: container, factory: declaration.mainActorFactory(factory), at: Container.location(file, line),
            onlyIfAbsent: false)
    }
}

/// A service declared with no runtime arguments: ``RegisteredWith``, resolved as
/// `try container.database()`.
public typealias Registered<Service> = RegisteredWith<Service>

/// A declared service seen without its types (`verify(including:)`).
protocol DeclaredService {
    /// Files the service's default in its container unless it has a registration of it: the
    /// error of a promised service nobody registered, if it is one.
    func fileDefault() -> ResolutionError?
}

extension RegisteredWith: DeclaredService {
    func fileDefault() -> ResolutionError? {
        declaration.registerDefault(in: container) ? nil : declaration.unkeptPromise(from: Container?.none)
    }
}
