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
/// resolution, across `await` and into child tasks), `.graph` services are shared within the
/// task that resolves them, and `initCompleted` closures run once the outermost factory has
/// returned. It resolves every registration: async ones here, synchronous ones as a synchronous
/// resolve of their own, main-actor ones on the main actor.
///
/// A resolution is `Sendable`, so a factory may resolve in the child tasks it awaits (`async let`,
/// a task group). It is valid while the resolve it was made for lasts: the top-level resolve, or
/// the `container.resolveAsync` call inside a factory that made it. Kept and used later, it
/// throws ``ResolutionError/Kind-swift.enum/resolverExpired``. A task the factory starts and does
/// not await should resolve from the container, with `container.resolveAsync(…)`.
public struct AsyncResolution: Sendable {
    /// The state of the top-level resolve this belongs to.
    let state: AsyncResolveState
    /// Where the completions of the instances it makes are queued.
    let scope: AsyncScope
    /// The service whose factory received this (`nil` at the top level), with the path to it.
    /// Its registrations are not retained: a frame is read only while its resolve is active.
    let frame: AsyncFrame?
    /// Where lookups start: the container resolved from, or the one that owns the `.container`
    /// or `.weak` registration whose factory received this.
    ///
    /// Not retained, so that an instance keeping its resolver does not keep its container (which
    /// keeps the instance); and not `weak`, which would give the container a side table and slow
    /// down every retain of it. Read only by a resolve that has joined the state, while the caller
    /// of the top-level or joined `resolveAsync` holds the container (and its children their
    /// parents, which own the kept registrations).
    unowned(unsafe) let container: Container

    init(state: AsyncResolveState, scope: AsyncScope, frame: AsyncFrame?, container: Container) {
        self.state = state
        self.scope = scope
        self.frame = frame
        self.container = container
    }

    /// Resolves `service` registered under `name` with runtime `arguments`, as part of this
    /// resolution's object graph, suspending (not blocking a thread) while another task creates a
    /// shared instance it needs.
    ///
    /// ```swift
    /// container.register(Report.self) { r in
    ///     async let sales = r.resolve(SalesFeed.self)
    ///     async let stock = r.resolve(StockFeed.self)
    ///     return try await Report(sales: sales, stock: stock)
    /// }
    /// ```
    ///
    /// - Throws: ``ResolutionError`` when nothing is registered, a cycle or a deadlock between
    ///   tasks is found, a factory throws, the task is cancelled, or this resolution has expired;
    ///   with the path that led here.
    public func resolve<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Service {
        // Joined while it runs: the top-level resolve ends only after it.
        guard state.join(in: scope) else {
            throw ResolutionError.expired(Service.self, name: name, arguments: (repeat each Argument).self)
        }
        defer { state.leave() }
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        let ancestors = sequence(first: frame, next: { $0?.outer }).lazy.compactMap { $0?.registration }
        var lookup = container
        var found = container.retainedRegistration(for: key)
        if found == nil, let findings = state.dryRunFindings {
            found = findings.childOnly(key, from: container, ancestors: ancestors)
            lookup = findings.container
        }
        guard let found else {
            if let optional = Service.self as? any OptionalService.Type {
                let wrapped = try await optional.resolveWrapped(in: self, name: name, arguments: repeat each arguments)
                return wrapped as! Service
            }
            if (repeat each Argument).self == Void.self, let deferred = Service.self as? any DeferredService.Type {
                let made = try deferred.make(
                    from: container, name: name, isDryRun: state.isDryRun, path: frame?.steps ?? [])
                return made as! Service
            }
            let requested = ServiceDescription(Service.self, name: name, arguments: (repeat each Argument).self)
            throw ResolutionError(
                kind: .notRegistered,
                service: requested.description,
                path: frame?.steps ?? [],
                availableRegistrations: container.registrations(of: ObjectIdentifier(Service.self))
            )
        }
        // Filed under the key of `Service` and the argument types.
        let registration = unsafeDowncast(found, to: Registration<Service>.self)
        state.dryRunFindings?.check(registration, ancestors: ancestors)
        guard let tracer = state.tracer else {
            return try await resolve(registration, from: lookup, arguments: repeat each arguments)
        }
        let depth = frame?.depth ?? 0
        tracer.record(registration, depth: depth, isCached(registration, from: lookup) ? .cached : .created)
        do {
            return try await resolve(registration, from: lookup, arguments: repeat each arguments)
        } catch {
            tracer.record(registration, depth: depth, .failed(error.kind))
            throw error
        }
    }

    /// A `resolveAsync` called inside a factory of this resolve: part of it, looking up from
    /// `container`, with a scope of its own whose completions it runs before it returns.
    func joining(from container: Container) -> AsyncResolution {
        AsyncResolution(state: state, scope: AsyncScope(), frame: frame, container: container)
    }

    /// The resolution of the task running an async factory or `initCompleted` closure, for a
    /// `container.resolveAsync` called inside it, which then belongs to the same resolve.
    @usableFromInline @TaskLocal static var current: AsyncResolution?
}
