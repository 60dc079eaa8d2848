/// A type that declares services (``RegisteredWith``) as its computed properties: ``Container``
/// itself, or an app's own type, for a module that keeps its services apart from the app's.
///
/// ```swift
/// /// The payments module's services.
/// final class PaymentServices: ServiceContainer {
///     static let shared = PaymentServices()
/// }
///
/// extension PaymentServices {
///     var processor: Registered<PaymentProcessor> {
///         self { r in PaymentProcessor(client: try r.resolve(HTTPClient.self)) }.inScope(.container)
///     }
///     var checkout: Registered<Checkout> { self { r in Checkout(processor: try r[\PaymentServices.processor]()) } }
/// }
///
/// let checkout = try PaymentServices.shared.checkout()
/// PaymentServices.shared.processor.register { _ in StubProcessor() }  // in a test
/// ```
///
/// Its services are registered and resolved in its ``container``: ``Container/shared`` unless it
/// says otherwise, so that a test's own shared container (`TraitInjectionTesting`) isolates
/// them, and they may depend on the app's services and the app's on them. Its properties are
/// its own: two modules may each declare a `client` without a clash. A factory resolves them
/// through its resolver with the key path, `r[\PaymentServices.processor]()`
/// (``Resolution/subscript(_:)``), and a property wrapper with `@Inject(\PaymentServices.processor)`.
/// Errors and the trace name such a service by its property alone, `processor (PaymentProcessor)`,
/// at the file and line of its declaration.
///
/// A service is keyed by its declaration's place, as on ``Container``: a declaration in a
/// protocol's extension, or in a generic type, is one service for every type that uses it —
/// declare each module's services in an extension of that module's own, non-generic type.
public protocol ServiceContainer: Sendable {
    /// The instance whose services property wrappers and resolvers' key paths resolve.
    static var shared: Self { get }

    /// Where its services are registered, resolved and reset: ``Container/shared`` by default.
    /// Return the same container on every read (a stored `let`): a new one each time would make
    /// a new `.container` instance on every resolve and lose each override.
    var container: Container { get }
}

extension ServiceContainer {
    /// ``Container/shared``: the current task's shared container, or the process's.
    public var container: Container { .shared }
}

extension Container: ServiceContainer {
    /// The container itself: where the services declared on it live.
    @inlinable
    public var container: Container { self }
}

extension ServiceContainer {
    // MARK: Declaring services

    /// Declares a service with its default `factory`: what the computed property of a declared
    /// service returns (``RegisteredWith``).
    ///
    /// ```swift
    /// extension Container {
    ///     var database: Registered<Database> { self { _ in Database(path: "app.sqlite") }.inScope(.container) }
    ///     var greeter: RegisteredWith<String, Greeter> { self { _, greeting in Greeter(greeting) } }
    /// }
    /// ```
    ///
    /// The service is keyed by where this is called — `file`, `line` and `column`, which stay as
    /// they are — and named by `property`, the property calling it.
    @inlinable
    public func callAsFunction<Service, each Argument>(
        file: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        property: StaticString = #function,
        _ factory: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> RegisteredWith<repeat each Argument, Service> {
        RegisteredWith(
            Declaration(
                sync: factory,
                site: DeclarationSite(file: file, line: line, column: column, property: property, on: Self.self)),
            in: container)
    }

    /// Declares a service with an async default `factory`, which only an async resolve can run:
    /// `try await container.catalog.resolveAsync()`.
    ///
    /// ```swift
    /// extension Container {
    ///     var catalog: Registered<Catalog> { self { r in await Catalog.open() }.inScope(.container) }
    /// }
    /// ```
    @inlinable
    public func callAsFunction<Service, each Argument>(
        file: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        property: StaticString = #function,
        _ factory: @escaping @Sendable (AsyncResolution, repeat each Argument) async throws -> Service
    ) -> RegisteredWith<repeat each Argument, Service> {
        RegisteredWith(
            Declaration(
                async: factory,
                site: DeclarationSite(file: file, line: line, column: column, property: property, on: Self.self)),
            in: container)
    }

    /// Declares a service whose default `factory` is isolated to the main actor: a view model,
    /// or another `@MainActor` type. A closure marked `@MainActor` selects this overload:
    ///
    /// ```swift
    /// extension Container {
    ///     var profileModel: Registered<ProfileViewModel> {
    ///         self { @MainActor r in ProfileViewModel(store: try r.profile()) }
    ///     }
    /// }
    /// ```
    ///
    /// On the main actor, `try Container.shared.profileModel()` makes it there and then. From
    /// elsewhere, `try await Container.shared.profileModel.resolveAsync()` runs the factory on
    /// the main actor; a synchronous resolve off the main actor throws
    /// ``ResolutionError/Kind-swift.enum/needsMainActor`` instead of running it there, as for a
    /// main-actor registration (``Container/register(_:name:file:line:factory:)-(_,_,_,_,(Resolution,Argument)->Service)``).
    @inlinable
    public func callAsFunction<Service: Sendable, each Argument: Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        property: StaticString = #function,
        _ factory: @escaping @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> RegisteredWith<repeat each Argument, Service> {
        RegisteredWith(
            Declaration(
                mainActor: factory,
                site: DeclarationSite(file: file, line: line, column: column, property: property, on: Self.self)),
            in: container)
    }

    /// Declares a service without a default, which another module provides: a feature module
    /// declares what it needs, the app registers it.
    ///
    /// ```swift
    /// extension Container {
    ///     var analytics: Registered<any Analytics> { promised() }
    /// }
    ///
    /// // Where the app starts:
    /// Container.shared.analytics.register { _ in FirebaseAnalytics() }
    /// ```
    ///
    /// Resolving it before anyone registered it throws
    /// ``ResolutionError/Kind-swift.enum/notRegistered``, naming the property and where it is
    /// declared; `verify(including:)` reports it. Refinements (``RegisteredWith/inScope(_:)``)
    /// apply to the registration that provides it.
    @inlinable
    public func promised<Service, each Argument>(
        file: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        property: StaticString = #function
    ) -> RegisteredWith<repeat each Argument, Service> {
        RegisteredWith(
            Declaration(
                sync: nil,
                site: DeclarationSite(file: file, line: line, column: column, property: property, on: Self.self)),
            in: container)
    }

}
