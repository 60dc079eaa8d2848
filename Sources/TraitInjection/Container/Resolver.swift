/// Resolves services: a ``Container``, and the ``Resolution`` a factory receives to resolve its
/// dependencies within the same object graph.
///
/// Write code that works with either against `some Resolver` or `any Resolver`:
///
/// ```swift
/// func makeOwner(_ resolver: some Resolver) throws(ResolutionError) -> PetOwner {
///     PetOwner(name: "Stephen", pet: try resolver.resolve(Animal.self))
/// }
/// container.register(Person.self) { r in try makeOwner(r) }
/// ```
public protocol Resolver {
    /// Resolves `service` registered under `name` with runtime `arguments`.
    ///
    /// - Parameters:
    ///   - service: The service type, as registered.
    ///   - name: The registration's name, or `nil` for the unnamed one.
    ///   - arguments: The runtime arguments; their types are part of the registration's key.
    /// - Returns: An instance, new or reused according to the registration's ``Scope``.
    /// - Throws: ``ResolutionError`` when nothing is registered, a cycle is found or a factory throws.
    func resolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service
}

extension Resolver {
    /// Resolves the unnamed registration of `service`, passing `arguments` to its factory.
    ///
    /// ```swift
    /// let animal = try resolver.resolve(Animal.self)
    /// let greeter = try resolver.resolve(Greeter.self, arguments: "Hello", 3)
    /// ```
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        try resolve(service, name: nil, arguments: repeat each arguments)
    }
}
