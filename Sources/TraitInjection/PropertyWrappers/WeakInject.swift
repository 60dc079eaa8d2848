/// A property that holds a service weakly, resolved from a container: from
/// ``Container/shared`` on first access, or by the container that creates the instance holding
/// it.
///
/// Use it for the back reference of a cycle, as a server does for the client that holds it:
///
/// ```swift
/// final class ClientImp: Client {
///     @Inject var server: Server
/// }
///
/// final class ServerImp: Server {
///     @WeakInject var client: Client?
/// }
///
/// container.register(Client.self) { _ in ClientImp() }
/// container.register(Server.self) { _ in ServerImp() }
/// let client = try container.resolve(Client.self)   // client.server.client === client
/// ```
///
/// The property reads `nil` once the object is released; it is not resolved again. Setting it
/// replaces the reference. The resolved service must be a class instance: a value cannot be held
/// weakly, and resolving one is an ``InjectionError``.
///
/// If the service cannot be resolved, the first access stops the program with the
/// ``ResolutionError``'s description and the property's `File.swift:line`; `try $client.resolve()`
/// throws instead.
@propertyWrapper
public struct WeakInject<Service> {
    @usableFromInline
    var storage: InjectionStorage<Service>

    /// Declares a property resolved from a declared service (``RegisteredWith``), by its
    /// property on ``Container``: `@WeakInject(\.client) var client: Client?`. It never fails
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
            InjectionRequest(declaration: "@WeakInject property", property: property, file: file, line: line),
            holdsWeakly: true)
    }

    /// Declares a property resolved from a service declared on an app's ``ServiceContainer``:
    /// `@WeakInject(\PaymentServices.processor) var processor: PaymentProcessor?`.
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
            InjectionRequest(declaration: "@WeakInject property", property: property, file: file, line: line),
            holdsWeakly: true)
    }

    /// Declares a weak property resolved from the registration of `Service` under `name`.
    ///
    /// - Parameters:
    ///   - name: The registration's name, or `nil` for the unnamed one.
    ///   - file: Where the property is declared, for errors; leave the default.
    ///   - line: Where the property is declared, for errors; leave the default.
    public init(name: String? = nil, file: StaticString = #fileID, line: UInt = #line) {
        storage = InjectionStorage("@WeakInject property", holdsWeakly: true, name: name, file: file, line: line)
    }

    /// Declares a weak property resolved from the registration of `Service` under `name` that takes
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
            "@WeakInject property",
            holdsWeakly: true,
            name: name,
            arguments: repeat each arguments,
            file: file,
            line: line
        )
    }

    /// The object while it lives, `nil` after; resolved on first access.
    public var wrappedValue: Service? {
        @inlinable get { storage.weakValue }
        set { storage = storage.replacing(with: newValue) }
    }

    /// The wrapper itself, to resolve without stopping on failure: `try $client.resolve()`.
    public var projectedValue: WeakInject<Service> { self }

    /// Resolves the property now, if it was not resolved or set yet, from ``Container/shared``.
    ///
    /// - Returns: The object the property refers to, or `nil` if it was released.
    /// - Throws: ``InjectionError``: the ``ResolutionError`` and where the property is declared,
    ///   or that the resolved service is not a class instance.
    @discardableResult
    public func resolve() throws(InjectionError) -> Service? {
        try storage.resolve(from: Container.shared)
    }
}

extension WeakInject: Sendable where Service: Sendable {}

extension WeakInject: AutoInjectedProperty {
    var injection: any PropertyInjection { storage }
}
