/// The resolver a factory receives: one top-level `resolve` of a ``Container`` in progress.
///
/// ```swift
/// container.register(Person.self) { r in   // r: Resolution
///     PetOwner(name: "Stephen", pet: try r.resolve(Animal.self))
/// }
/// ```
///
/// Resolving through it keeps the object graph together: `.graph`-scoped services are shared
/// across the whole top-level resolve, cycles are reported with their path, and `initCompleted`
/// closures run once the outermost factory has returned. Being a concrete type rather than
/// `any Resolver`, its resolves are specialised for the service types at each call site.
///
/// A resolution is valid only on the thread running the factory, while its top-level `resolve`
/// lasts. A resolution kept and used later, or from another thread, resolves nothing: it throws
/// ``ResolutionError/Kind-swift.enum/resolverExpired``. To resolve later, keep the container.
public struct Resolution: Resolver {
    /// The state of the top-level resolve. (Contexts are never freed, so a kept resolution can
    /// always check whether it is still current.)
    @usableFromInline
    let context: ResolutionContext
    /// The activation of `context` this resolution belongs to.
    @usableFromInline
    let activation: UInt64
    /// Where lookups start: the container the top-level `resolve` was called on, or the container
    /// that owns the `.container` or `.weak` registration whose factory received this.
    ///
    /// Not retained, so that a resolution kept by an instance does not keep its container alive
    /// (the container keeps the instance). Only read while `context` is in this activation, when
    /// the caller of the top-level `resolve` holds the container.
    @usableFromInline
    unowned(unsafe) let container: Container

    @usableFromInline
    init(context: ResolutionContext, activation: UInt64, container: Container) {
        self.context = context
        self.activation = activation
        self.container = container
    }

    /// Resolves `service` registered under `name` with runtime `arguments`, as part of this
    /// resolution's object graph.
    ///
    /// - Throws: ``ResolutionError`` when nothing is registered, a cycle is found, a factory
    ///   throws, or this resolution has expired; with the path that led here.
    @inlinable
    public func resolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        guard context.isCurrent(activation) else {
            throw ResolutionError.expired(Service.self, name: name, arguments: (repeat each Argument).self)
        }
        return try context.resolve(service, name: name, from: container, arguments: repeat each arguments)
    }

    /// Resolves the unnamed registration of `service`, passing `arguments` to its factory.
    ///
    /// ```swift
    /// container.register(Person.self) { r in
    ///     PetOwner(name: "Stephen", pet: try r.resolve(Animal.self))
    /// }
    /// ```
    @inlinable
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        try resolve(service, name: nil, arguments: repeat each arguments)
    }
}

extension ResolutionError {
    /// The error for a ``Lazy`` or ``Provider`` (`Wrapper`) used after its container was released.
    @usableFromInline
    static func containerReleased<Wrapper>(_: Wrapper.Type, name: String?) -> ResolutionError {
        ResolutionError(
            kind: .containerReleased,
            service: ServiceDescription(Wrapper.self, name: name, arguments: Void.self).description
        )
    }

    /// The error for a ``Resolution`` used after its top-level resolve, or on another thread.
    @usableFromInline
    static func expired<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: (repeat each Argument).Type
    ) -> ResolutionError {
        ResolutionError(
            kind: .resolverExpired,
            service: ServiceDescription(Service.self, name: name, arguments: arguments).description
        )
    }
}
