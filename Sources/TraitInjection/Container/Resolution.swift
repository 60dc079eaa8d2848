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
    @usableFromInline let resolve: Resolve
    /// The service whose factory or completion received this, with the path to it.
    @usableFromInline let frame: Frame?
    /// Where lookups start: the container resolved from, or the one that keeps the shared
    /// instance whose factory received this. Not retained, so that an instance keeping its
    /// resolver does not keep its container (which keeps the instance); read only while the
    /// resolve runs, which holds the container resolved from (and it its parents).
    @usableFromInline unowned let lookup: Container
    /// The thread it works on.
    @usableFromInline let thread: UInt

    init(_ resolve: Resolve, _ frame: Frame?, _ lookup: Container) {
        self.resolve = resolve
        self.frame = frame
        self.lookup = lookup
        thread = Platform.currentThread
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
        guard isValid else {
            throw ResolutionError.expired(Service.self, name: name, arguments: (repeat each Argument).self)
        }
        // Typed here, where `Service` is known; the engine behind `Resolve.resolve` is not.
        var made: Service?
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        let found = try resolve.resolve(key, ArgumentValues.of(repeat each arguments), from: lookup, at: frame) {
            binding, resolution in
            let factory = unsafeDowncast(binding.syncBox, to: FactoryBox<Service, repeat each Argument>.self)
            let instance = try factory.make(resolution, repeat each arguments)
            made = instance
            return instance
        }
        switch found {
        case .kept(let box): return unsafeDowncast(box, to: Kept<Service>.self).instance
        case .made: return made.unsafelyUnwrapped
        case .instance(let instance): return instance as! Service
        case .unregistered:
            return try resolve.unregistered(
                Service.self, name: name, arguments: repeat each arguments, from: lookup, at: frame)
        }
    }

    /// Whether it may resolve now: on its thread, while its resolve runs.
    @usableFromInline
    var isValid: Bool { resolve.isRunning && thread == Platform.currentThread }

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
