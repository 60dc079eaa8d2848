/// ``Lazy`` and ``Provider``: resolvable for any registered service without a registration of
/// their own, as `T?` is for `T`.
protocol DeferredService {
    associatedtype Deferred

    /// When it resolves, in the place of a registration's location in errors.
    static var deferral: String { get }

    /// The service it resolves.
    static var deferred: any Any.Type { get }

    /// Whether it keeps what it resolves, as a stored property would: then what holds it holds
    /// that instance, for ``Container/verify()``'s lifetime checks.
    static var keepsInstance: Bool { get }

    /// One resolving `Deferred` under `name` from `container`; `graph` is the record of the
    /// graph it was made in, for a ``Lazy``.
    init(resolvingFrom container: Container, name: String?, graph: () -> GraphRecord?)
}

extension Lazy: DeferredService {
    typealias Deferred = Service
    static var deferral: String { "resolved on first access" }
    static var keepsInstance: Bool { true }
}

extension Provider: DeferredService {
    typealias Deferred = Service
    static var deferral: String { "resolved on each call" }
    static var keepsInstance: Bool { false }
}

extension DeferredService {
    static var deferred: any Any.Type { Deferred.self }

    /// One resolving `Deferred` under `name` from `container`, made at position (`t`, `f`) of
    /// `stack`.
    ///
    /// - Throws: `notRegistered` if nothing in the container's chain provides `Deferred`. A dry
    ///   run (``Container/verify()``) also checks that a synchronous resolve of `Deferred` can
    ///   work, without resolving it, and the lifetime of what a ``Lazy`` will keep.
    static func make(
        from container: Container,
        name: String?,
        in stack: ResolveStack,
        at t: Int,
        _ f: Int
    ) throws(ResolutionError) -> Self {
        let findings = stack.heavy(of: t)?.findings
        let isDryRun = findings != nil
        if keepsInstance, let findings,
            let holder = stack.frame(at: t, f)?.chain.first(where: { $0.binding.isShared })?.binding,
            findings.isFirstVisit(to: ServiceKey(Deferred.self, name: name, arguments: Void.self), keptBy: holder)
        {
            // What a kept instance will hold through the `Lazy`, checked as if it held it now: the
            // service and what it holds in turn, once per holder, in a resolve nested in this one.
            // Its errors are not this resolve's (a cycle through a `Lazy` is what a `Lazy` is
            // for); the later resolve's are checked below.
            _ = try? container.resolve(Deferred.self, name: name)
        }
        if let problem = laterResolveProblem(from: container, name: name), isDryRun || problem.kind == .notRegistered {
            let step = ResolutionError.Step(
                service: ServiceDescription(Self.self, name: name, arguments: Void.self).description, location: deferral
            )
            throw ResolutionError(
                kind: problem.kind,
                service: problem.service,
                path: stack.steps(at: t, f) + [step],
                availableRegistrations: problem.kind == .notRegistered
                    ? container.registrations(of: problem.serviceType) : []
            )
        }
        return Self(resolvingFrom: container, name: name) { isDryRun ? nil : stack.heavy(t).lazyRecord() }
    }

    static func laterResolveProblem(from container: Container, name: String?) -> LaterResolveProblem? {
        LaterResolveProblem.of(Deferred.self, name: name, from: container)
    }
}

/// `Optional`, so that resolving `T?` resolves `T`, or gives `nil` where nothing provides `T`.
protocol OptionalService {
    static var wrapped: any Any.Type { get }
    static var nothing: Any { get }

    static func resolveWrapped<each Argument>(
        with resolution: Resolution, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Any

    static func resolveWrapped<each Argument>(
        in resolution: AsyncResolution, name: String?, arguments: repeat each Argument
    ) async throws(ResolutionError) -> Any

    static func laterResolveProblem(from container: Container, name: String?) -> LaterResolveProblem?
}

extension Optional: OptionalService {
    static var wrapped: any Any.Type { Wrapped.self }
    static var nothing: Any { Wrapped?.none as Any }

    static func resolveWrapped<each Argument>(
        with resolution: Resolution, name: String?, arguments: repeat each Argument
    ) throws(ResolutionError) -> Any {
        Wrapped?.some(try resolution.resolve(Wrapped.self, name: name, arguments: repeat each arguments)) as Any
    }

    static func resolveWrapped<each Argument>(
        in resolution: AsyncResolution, name: String?, arguments: repeat each Argument
    ) async throws(ResolutionError) -> Any {
        Wrapped?.some(try await resolution.resolve(Wrapped.self, name: name, arguments: repeat each arguments)) as Any
    }

    /// Why a later resolve of the wrapped service would fail; not that it is not registered:
    /// then it is `nil`.
    static func laterResolveProblem(from container: Container, name: String?) -> LaterResolveProblem? {
        let problem = LaterResolveProblem.of(Wrapped.self, name: name, from: container)
        return problem?.kind == .notRegistered ? nil : problem
    }
}

/// What a ``Lazy`` shares between its copies: its container, held weakly, and the instance,
/// resolved once.
///
/// The instance is kept in a shared scope of its own: this storage is the slot, and its binding
/// (filed in no container) resolves `Service` by its name. The first access is a top-level resolve
/// of that binding, so it gets what a singleton gets: one thread or task makes it while the others
/// wait (a deadlock between them is handled as for singletons), a cycle back to the `Lazy`
/// through its own first resolve is reported with its path, and nothing is kept unless the whole
/// resolve succeeds. The binding's empty completion, queued after the service's own, makes the
/// instance complete only once those have run.
final class LazyStorage<Service>: KeptSlot {
    /// Weak: a service the container keeps may hold the `Lazy`.
    weak let container: Container?
    let binding: Binding
    /// The graph of the resolve that made the `Lazy`: the first read resolves in it.
    let graph: GraphRecord?
    private let kept = Locked(KeptState.empty)

    init(resolvingFrom container: Container, name: String?, graph: GraphRecord?) {
        self.container = container
        self.graph = graph
        binding = Binding(
            Service.self,
            description: ServiceDescription(Lazy<Service>.self, name: name, arguments: Void.self),
            location: Lazy<Service>.deferral,
            assembly: nil,
            scope: .shared(.container),
            factory: .sync(FactoryBox<Service> { r in try r.resolve(Service.self, name: name) }),
            completions: [.sync { _, _ in }],
            reinitializeStrategy: .reUse,
            autoInjects: false
        )
    }

    func withKept<Result>(_ body: (inout KeptState, Binding?) -> Result) -> Result {
        kept.withLock { body(&$0, binding) }
    }

    /// The instance, resolved on first access.
    func value() throws(ResolutionError) -> Service {
        let box = withKept { kept, _ -> AnyObject? in
            if case .strong(let box) = kept { box } else { nil }
        }
        if let box { return unsafeDowncast(box, to: Kept<Service>.self).instance }
        guard let container else {
            throw ResolutionError.containerReleased(Lazy<Service>.self, name: binding.description.name)
        }
        return try withExtendedLifetime(container) { () throws(ResolutionError) in
            try find(Service.self, name: nil)!
        }
    }
}
