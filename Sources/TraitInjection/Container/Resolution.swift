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
@dynamicMemberLookup
public struct Resolution: Resolver {
    /// Where it stands on its thread's ``ResolveStack``: a frame (`0…`), or the top of top
    /// `-1 - position`.
    @usableFromInline let position: Int
    /// The serial of that record: the resolution is valid while the record is live.
    @usableFromInline let serial: UInt64

    init(position: Int, serial: UInt64) {
        self.position = position
        self.serial = serial
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
        try resolveService(Service.self, name: name, arguments: repeat each arguments)
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

extension Resolution {
    /// A service declared on ``Container`` (``RegisteredWith``), resolved as part of this
    /// resolution's object graph: `try r.database()` in a factory.
    ///
    /// ```swift
    /// extension Container {
    ///     var profile: Registered<ProfileStore> { self { r in ProfileStore(database: try r.database()) } }
    /// }
    /// ```
    @inlinable
    public subscript<each Argument, Service>(
        dynamicMember declaration: KeyPath<Container, RegisteredWith<repeat each Argument, Service>>
    ) -> DeclaredDependency<Container, repeat each Argument, Service> {
        DeclaredDependency(declaration, resolver: .sync(self))
    }

    /// A service declared on an app's ``ServiceContainer``, resolved as part of this
    /// resolution's object graph: `try r[\PaymentServices.processor]()` in a factory.
    ///
    /// ```swift
    /// extension PaymentServices {
    ///     var checkout: Registered<Checkout> { self { r in Checkout(processor: try r[\PaymentServices.processor]()) } }
    /// }
    /// ```
    ///
    /// If the type's ``ServiceContainer/container`` is not this resolve's container or one of
    /// its parents, the service is resolved there, as a resolve of its own.
    @inlinable
    public subscript<Owner: ServiceContainer, each Argument, Service>(
        _ property: KeyPath<Owner, RegisteredWith<repeat each Argument, Service>>
    ) -> DeclaredDependency<Owner, repeat each Argument, Service> {
        DeclaredDependency(property, resolver: .sync(self))
    }

    /// The container this resolver's resolves look up from, while it is valid.
    @usableFromInline var lookup: Container? {
        ResolvingThread.current.stack.position(of: self)?.lookup.object
    }

    /// Runs `body`, the resolve of a weak property (``WeakInject``) of the instance this resolver
    /// completes: in a dry run, what it resolves is not kept by that instance.
    func holdingWeakly<Result, Failure>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let stack = ResolvingThread.current.stack
        guard let (t, f, _) = stack.position(of: self), let findings = stack.heavy(of: t)?.findings,
            let frame = stack.frame(at: t, f)
        else { return try body() }
        return try findings.holdingWeakly(at: frame, body)
    }

    /// Queues the completions `binding` gives `instance`, which its factory made for a forwarding
    /// registration (``Registration/implements(_:as:)``).
    func complete<Instance>(_ instance: Instance, as binding: Binding) throws(ResolutionError) {
        guard !binding.completions.isEmpty || binding.autoInjects else { return }
        try ResolvingThread.with { thread throws(ResolutionError) in
            try thread.stack.complete(instance, ObjectIdentifier(type(of: instance)), as: binding, for: self)
        }
    }
}

extension ResolutionError {
    /// The error for a ``Lazy`` or ``Provider`` (`Wrapper`) used after its container was released.
    static func containerReleased<Wrapper>(_: Wrapper.Type, name: String?) -> ResolutionError {
        ResolutionError(
            kind: .containerReleased,
            service: ServiceDescription(Wrapper.self, name: name, arguments: Void.self).description
        )
    }

    /// The error for a resolver used after its top-level resolve, or on another thread.
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
