/// The resolver an async factory receives: one top-level async resolve of a ``Container`` in
/// progress.
///
/// ```swift
/// container.register(Catalog.self) { r in        // r: AsyncResolution
///     await Catalog.open(database: try await r.resolve(Database.self))
/// }
/// ```
///
/// Resolving through it keeps the object graph together, like ``Resolution`` does for
/// synchronous factories: cycles are reported with their path (the path travels with the
/// resolution, across `await` and into child tasks), `.graph` services are shared by the whole
/// resolve — the tasks its factories await included — and `initCompleted` closures run once the
/// outermost factory has returned. It resolves every registration: async ones here, synchronous
/// ones as synchronous parts of the same resolve, main-actor ones on the main actor.
///
/// A resolution is `Sendable`, so a factory may resolve in the child tasks it awaits (`async let`,
/// a task group). It is valid while the resolve it was made for lasts: the top-level resolve, or
/// the `container.resolveAsync` call inside a factory that made it. Kept and used later, it
/// throws ``ResolutionError/Kind-swift.enum/resolverExpired``. A task the factory starts and does
/// not await should resolve from the container, with `container.resolveAsync(…)`.
@dynamicMemberLookup
public struct AsyncResolution: Sendable {
    let resolve: Resolve
    /// The service whose factory or completion received this, with the path to it.
    let frame: Frame?
    /// Where lookups start: held weakly, so that an instance keeping its resolver does not keep
    /// its container (which keeps the instance).
    weak var lookup: Container?

    init(_ resolve: Resolve, _ frame: Frame?, _ lookup: Container) {
        self.resolve = resolve
        self.frame = frame
        self.lookup = lookup
    }

    /// Resolves `service` registered under `name` with runtime `arguments`, as part of this
    /// resolution's object graph, suspending (not blocking a thread) while another task or thread
    /// creates a shared instance it needs.
    ///
    /// ```swift
    /// container.register(Report.self) { r in
    ///     async let sales = r.resolve(SalesFeed.self)
    ///     async let stock = r.resolve(StockFeed.self)
    ///     return try await Report(sales: sales, stock: stock)
    /// }
    /// ```
    ///
    /// - Throws: ``ResolutionError`` when nothing is registered, a cycle or a deadlock is found, a
    ///   factory throws, the task is cancelled, or this resolution has expired; with the path that
    ///   led here.
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Service {
        guard resolve.isRunning, let lookup else {
            throw ResolutionError.expired(Service.self, name: name, arguments: (repeat each Argument).self)
        }
        return try await resolve.resolveAsync(
            Service.self, name: name, arguments: repeat each arguments, from: lookup, at: frame)
    }

    /// A service declared on ``Container`` (``RegisteredWith``), resolved as part of this
    /// resolution's object graph: `try await r.catalog.resolveAsync()` in an async factory.
    ///
    /// ```swift
    /// extension Container {
    ///     var report: Registered<Report> { self { r in Report(catalog: try await r.catalog.resolveAsync()) } }
    /// }
    /// ```
    public subscript<each Argument, Service>(
        dynamicMember declaration: KeyPath<Container, RegisteredWith<repeat each Argument, Service>>
    ) -> DeclaredDependency<Container, repeat each Argument, Service> {
        DeclaredDependency(declaration, resolver: .async(AsyncResolver(self)))
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
    public subscript<Owner: ServiceContainer, each Argument, Service>(
        _ property: KeyPath<Owner, RegisteredWith<repeat each Argument, Service>>
    ) -> DeclaredDependency<Owner, repeat each Argument, Service> {
        DeclaredDependency(property, resolver: .async(AsyncResolver(self)))
    }

    /// Resolves the registration of `Service` under `key` (a declared service's), as
    /// ``resolve(_:name:arguments:)`` does.
    func resolve<Service, each Argument>(
        _: Service.Type,
        key: ServiceKey,
        arguments: repeat each Argument,
        fileDefault: (@Sendable (Container) -> Bool)? = nil
    ) async throws(ResolutionError) -> Service {
        guard resolve.isRunning, let lookup else {
            throw ResolutionError.expired(Service.self, name: nil, arguments: (repeat each Argument).self)
        }
        return try await resolve.resolveAsync(
            Service.self, name: nil, arguments: repeat each arguments, from: lookup, at: frame, key: key,
            fileDefault: fileDefault)
    }

    /// Resolves `Service` on the main actor, as a synchronous part of this resolve: how an async
    /// resolve runs a main-actor factory registered by type.
    func onMainActor<Service: Sendable, each Argument: Sendable>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Service {
        guard let lookup else {
            throw ResolutionError.expired(Service.self, name: name, arguments: (repeat each Argument).self)
        }
        let values = (repeat each arguments)
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        let made = try await onMainActor(key, from: lookup) { resolution throws(ResolutionError) -> Service? in
            try resolution.resolve(Service.self, name: name, arguments: repeat each values)
        }
        if let made { return made }
        return try await resolve(Service.self, key: key, arguments: repeat each arguments)
    }

    /// Runs `section`, which resolves the main-actor service under `key`, on the main actor as a
    /// synchronous part of this resolve, looking up from `lookup`: what it made, or `nil` for the
    /// caller to resolve the service after the hop, with the async engine.
    ///
    /// `nil` when `section` returns it, or when the service itself needs an async resolve: an
    /// async registration replaced the main-actor one while this waited for the main actor (or a
    /// reset filed an async default). This looks for that first; if the registration changes
    /// again between that look and the engine's own read, the engine's
    /// ``ResolutionError/Kind-swift.enum/needsAsyncResolve`` for it says so. That error is thrown
    /// before anything is claimed, at this resolve's path, by the section's own top while none of
    /// its factories runs (a dependency's has a longer path; one a factory met through a resolver
    /// kept past its own factory was thrown while that factory ran; one a factory caught
    /// elsewhere and threw again, by another top): only it is taken for the service's own.
    ///
    /// What `section` made crosses actors unchecked: a main-actor factory is registered or
    /// declared only by overloads that require its service to be `Sendable`, which these generic
    /// callers cannot say.
    func onMainActor<Result>(
        _ key: ServiceKey,
        from lookup: Container,
        _ section: @escaping @MainActor @Sendable (Resolution) throws(ResolutionError) -> Result?
    ) async throws(ResolutionError) -> Result? {
        let path = frame.steps
        return try await resolve.synchronouslyOnMainActor(at: frame, from: lookup) {
            @MainActor stack, t throws(ResolutionError) -> UncheckedBox<Result?> in
            if lookup.isReplacedByAsync(key) { return UncheckedBox(nil) }
            do throws(ResolutionError) {
                return UncheckedBox(try section(Resolution(top: t, in: stack)))
            } catch let error
                where error.kind == .needsAsyncResolve && stack.ownReadNeedsAsyncResolve(t) && error.path == path
            {
                return UncheckedBox(nil)
            }
        }.value
    }
}
