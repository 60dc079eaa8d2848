/// ``Lazy`` and ``Provider``: resolvable for any registered service without a registration of
/// their own, as `T?` is for `T`.
protocol DeferredService {
    associatedtype Deferred

    /// When it resolves, in the place of a registration's location in errors.
    static var deferral: String { get }

    /// The service it resolves.
    static var deferred: any Any.Type { get }

    /// Whether it keeps what it resolves, as a stored property would: then what holds it holds
    /// that instance, for `verify()`'s lifetime checks.
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
    ///   run (`verify()`) also checks that a synchronous resolve of `Deferred` can
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
        if keepsInstance, let findings, let frame = stack.frame(at: t, f),
            findings.isFirstVisit(to: ServiceKey(Deferred.self, name: name, arguments: Void.self), at: frame)
        {
            // What an instance will hold through the `Lazy`, checked as if it held it now: the
            // service and what it holds in turn (the graph's edges, and the lifetimes if a kept
            // instance holds it), once per registration and holder, in a resolve nested in this
            // one. Its errors are not this resolve's (a cycle through a `Lazy` is what a `Lazy` is
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
            autoInjects: false,
            isLazys: true
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

/// The `.graph` instances a ``Lazy`` resolves in when it is first read: those its *maker*, the
/// resolve that made the `Lazy`, made or used — once that resolve, and the outermost resolve it is
/// nested in (its *root*), have succeeded.
///
/// - **Nothing before that.** While they run, the graph's instances may still wait for their
///   `initCompleted` closures, and the resolves may still fail: a `Lazy` read then (in a factory,
///   an `initCompleted`, on another thread) resolves in a graph of its own. So does one whose
///   maker or root failed, or whose maker ended after its root (a task it did not await).
/// - **Then, the objects, held weakly**: a `Lazy` gets one while something else holds it, and makes
///   a new one once it is gone. A value type's instance is a copy anyway, and is not kept; nor is
///   an instance made with runtime arguments, whose values the record would hold.
/// - **Only what the maker had.** What a `Lazy`'s own first read makes is its own: two `Lazy`s of
///   one graph share an instance only if the maker's graph had it. A first read's graph holds what
///   it found in its maker's record too, so a `Lazy` made in it sees all of it, with no chain.
///
/// The root settles the records made in its tree when it ends (``Resolve/next(_:describing:)``,
/// ``Resolve/fail()``). Lock order: a resolve's lock, then a record's.
final class GraphRecord: Sendable {
    private struct Remembered {
        let binding: WeakReference
        let lookup: WeakReference
        let instance: WeakReference
    }

    private enum Phase {
        /// Its maker runs, or has succeeded and waits for its root (`graph`).
        case pending(graph: [Remembered]?)
        case published([Remembered])
        /// Its maker or root failed, or its maker ended after the root had settled it.
        case discarded
    }

    private let phase = Locked(Phase.pending(graph: nil))

    init() {}

    /// The graph's instance of `binding` from `lookup`, if the record is published and it is
    /// still there.
    func instance(of binding: Binding, from lookup: Container) -> Any? {
        phase.withLock { phase -> Any? in
            guard case .published(let graph) = phase else { return nil }
            return graph.last { $0.binding.object === binding && $0.lookup.object === lookup }?.instance.object
        }
    }

    /// Records the graph of the maker, which has succeeded; published when the root succeeds (at
    /// once if the maker is the root).
    func remember(_ graph: [GraphEntry], isRoot: Bool) {
        let remembered = graph.compactMap { entry -> Remembered? in
            guard entry.arguments == nil, type(of: entry.instance) is AnyClass else { return nil }
            return Remembered(
                binding: WeakReference(entry.binding), lookup: WeakReference(entry.lookup),
                instance: WeakReference(entry.instance as AnyObject))
        }
        phase.withLock { phase in
            guard case .pending(nil) = phase else { return }  // Settled already: the root has ended.
            phase = isRoot ? .published(remembered) : .pending(graph: remembered)
        }
    }

    /// The root's end: publishes the maker's graph if the root `succeeded` and the maker had.
    func settle(succeeded: Bool) {
        phase.withLock { phase in
            guard case .pending(let graph) = phase else { return }
            phase = succeeded ? graph.map { .published($0) } ?? .discarded : .discarded
        }
    }
}
