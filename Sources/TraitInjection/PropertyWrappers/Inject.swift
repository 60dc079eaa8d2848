/// A property whose value is resolved from a container: from ``Container/shared`` on first
/// access, or by the container that creates the instance holding it.
///
/// Declare the dependency, register it once, and use it:
///
/// ```swift
/// final class RestaurantListViewController {
///     @Inject private var lister: RestaurantLister
///
///     func reload() -> [Restaurant] { lister.restaurants() }
/// }
///
/// Container.shared.register(RestaurantLister.self) { _ in RestaurantLister() }
/// ```
///
/// A named registration or one taking runtime arguments is resolved the same way:
///
/// ```swift
/// @Inject(name: "dog") var dog: Animal
/// @Inject(arguments: "Hello", 3) var greeter: Greeter
/// ```
///
/// The first access resolves the service and keeps it; later accesses return the same instance
/// (one atomic load: no lock, no allocation). Setting the property replaces the value, as a test or a
/// preview does. When a ``Container`` creates an instance, it fills in its `@Inject` properties
/// itself, within the same resolution, so graph-scoped services are shared and cycles close (see
/// ``Container/autoInject(into:)``).
///
/// If the service cannot be resolved, the first access stops the program with the
/// ``ResolutionError``'s description and the property's `File.swift:line`. To handle the error
/// instead, resolve through the projected value: `try $lister.resolve()`.
///
/// > Important: When several threads access an unresolved property at the same time, each may
/// > run the factory, but only the first value published is kept, and every access returns it.
/// > Register services that must be created once in the ``Scope/container`` scope.
@propertyWrapper
public struct Inject<Service> {
    @usableFromInline
    var storage: InjectionStorage<Service>

    /// Declares a property resolved from a declared service (``RegisteredWith``), by its
    /// property on ``Container``: `@Inject(\.database) var database: Database`. It never fails
    /// for want of a registration.
    ///
    /// - Parameters:
    ///   - property: The declared service's property.
    ///   - file: Where the property is declared, for errors; leave the default.
    ///   - line: Where the property is declared, for errors; leave the default.
    public init(
        _ property: any KeyPath<Container, Registered<Service>> & Sendable,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        storage = InjectionStorage(
            InjectionRequest(declaration: "@Inject property", property: property, file: file, line: line),
            holdsWeakly: false)
    }

    /// Declares a property resolved from a service declared on an app's ``ServiceContainer``:
    /// `@Inject(\PaymentServices.processor) var processor: PaymentProcessor`.
    ///
    /// - Parameters:
    ///   - property: The declared service's property.
    ///   - file: Where the property is declared, for errors; leave the default.
    ///   - line: Where the property is declared, for errors; leave the default.
    public init<Owner: ServiceContainer>(
        _ property: any KeyPath<Owner, Registered<Service>> & Sendable,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        storage = InjectionStorage(
            InjectionRequest(declaration: "@Inject property", property: property, file: file, line: line),
            holdsWeakly: false)
    }

    /// Declares a property resolved from the registration of `Service` under `name`.
    ///
    /// - Parameters:
    ///   - name: The registration's name, or `nil` for the unnamed one.
    ///   - file: Where the property is declared, for errors; leave the default.
    ///   - line: Where the property is declared, for errors; leave the default.
    public init(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        storage = InjectionStorage("@Inject property", holdsWeakly: false, name: name, file: file, line: line)
    }

    /// Declares a property resolved from the registration of `Service` under `name` that takes
    /// runtime arguments.
    ///
    /// - Parameters:
    ///   - name: The registration's name, or `nil` for the unnamed one.
    ///   - arguments: Runtime arguments for the factory; their types are part of the key.
    ///   - file: Where the property is declared, for errors; leave the default.
    ///   - line: Where the property is declared, for errors; leave the default.
    public init<each Argument: Sendable>(
        name: String? = nil,
        arguments: repeat each Argument,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        storage = InjectionStorage(
            "@Inject property",
            holdsWeakly: false,
            name: name,
            arguments: repeat each arguments,
            file: file,
            line: line
        )
    }

    /// An initial value would be misleading: `@Inject` resolves its value from the container, so
    /// `@Inject var lister = RestaurantLister()` does not compile.
    ///
    /// (It is generic so that the compiler does not take it for the wrapper's own
    /// `init(wrappedValue:)`, which every property declaration would then reach.)
    @available(
        *, unavailable,
        message: "@Inject resolves its value from the container: remove the initial value, or drop @Inject"
    )
    public init<Value>(wrappedValue: Value) {
        fatalError("unavailable")
    }

    /// The service: resolved on first access, then kept until set.
    public var wrappedValue: Service {
        @inlinable get { storage.strongValue }
        set { storage = storage.replacing(with: newValue) }
    }

    /// The wrapper itself, to resolve without stopping on failure: `try $lister.resolve()`.
    public var projectedValue: Inject<Service> { self }

    /// Resolves the property now, if it holds no value yet, from ``Container/shared``.
    ///
    /// ```swift
    /// #expect(throws: InjectionError.self) { try screen.$lister.resolve() }
    /// ```
    ///
    /// - Returns: The value the property holds from now on.
    /// - Throws: ``InjectionError``: the ``ResolutionError`` and where the property is declared.
    @discardableResult
    public func resolve() throws(InjectionError) -> Service {
        try storage.resolve(from: Container.shared)!
    }
}

extension Inject: Sendable where Service: Sendable {}

extension Inject: AutoInjectedProperty {
    var injection: any PropertyInjection { storage }
}
