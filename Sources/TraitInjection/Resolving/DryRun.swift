/// What a dry run (`verify()`, `dependencyGraph()`) finds besides its
/// errors: each dependency of one registration on another, and the lifetime problems, one of
/// each; from any task of an async one.
final class DryRunFindings: Sendable {
    /// A registration that depends on another.
    struct Edge {
        let dependent: Binding
        let dependency: Binding
    }

    /// A lifetime problem, with the registrations it names.
    struct Problem {
        let problem: LifetimeProblem
        let holder: Binding
        let dependency: Binding
    }

    private struct Found {
        var problems: [Problem] = []
        var edges: [Edge] = []
        var edgeKeys: Set<[ObjectIdentifier]> = []
        var lazyVisits: Set<LazyVisit> = []
        /// The frames whose resolves a weak property holds now (``holdingWeakly(at:_:)``).
        var weakHolders: Set<ObjectIdentifier> = []
    }

    private struct LazyVisit: Hashable {
        let key: ServiceKey
        let dependent: ObjectIdentifier
        let holder: ObjectIdentifier?
    }

    private let found = Locked(Found())
    /// The container the dry run checks.
    let container: Container

    init(checking container: Container) {
        self.container = container
    }

    /// The lifetime problems found, one of each, in the order they were first found.
    var problems: [Problem] { found.withLock { $0.problems } }

    /// The dependencies found, in the order they were first found.
    var edges: [Edge] { found.withLock { $0.edges } }

    /// Records the dependency of the resolve at `frame` on `dependency`, and checks their
    /// lifetimes.
    ///
    /// The instance that keeps it is the nearest one on the path kept by a shared scope: the
    /// `.graph` and `.transient` instances in between are held by it too.
    func check(_ dependency: Binding, ancestors frame: Frame?) {
        var isHeldWeakly = false
        if let frame, let dependent = frame.dependent {
            let key = [ObjectIdentifier(dependent), ObjectIdentifier(dependency)]
            found.withLock { found in
                if found.edgeKeys.insert(key).inserted {
                    found.edges.append(Edge(dependent: dependent, dependency: dependency))
                }
                isHeldWeakly = found.weakHolders.contains(ObjectIdentifier(frame))
            }
        }
        guard !isHeldWeakly, let holder = frame?.keeper else { return }
        if holder.scope.lifetime == .container {
            switch dependency.scope.lifetime {
            case .whileHeld: add(.singletonKeepsWeak, holder, dependency)
            case .untilReset: add(.singletonKeepsAppScoped, holder, dependency)
            case .resolve, .container: break
            }
        }
        if holder.reinitializeStrategy == .reUse, dependency.isShared, dependency.reinitializeStrategy == .reCreate {
            add(.reUseKeepsReCreate, holder, dependency)
        }
    }

    /// For a dependency under `key` that a kept instance, built from its own container's
    /// registrations like a real resolve's, does not find there: if ``container``, which the dry
    /// run checks, registers it, the kept instance belongs to a parent of that container and
    /// needs what only a child registers. Records the problem, and returns that registration for
    /// the dry run to go on with; `nil` if it is not registered there either.
    ///
    /// Not for a declared service: its resolve files its default where the parent finds it, as a
    /// real resolve does, or fails as one does if it is promised. And not for the service of a
    /// `T?` (`optional`): its resolve gets `nil`, as a real one does, and the problem recorded
    /// says so (``LifetimeProblem/Rule/parentIgnoresChild``).
    func childOnly(_ key: ServiceKey, from lookup: Container, at frame: Frame?, optional: Bool = false)
        -> RegistryEntry?
    {
        guard !key.isDeclared, container !== lookup, let (entry, _) = container.lookUp(key),
            let holder = frame?.keeper
        else { return nil }
        let binding = entry.read().binding
        if binding.isStandIn { return nil }
        add(optional ? .parentIgnoresChild : .parentNeedsChild, holder, binding)
        return optional ? nil : entry
    }

    /// Runs `body`, which resolves what a weak property (``WeakInject``) of the instance `frame`
    /// completes holds: a dependency of that instance (an edge), but not one it keeps. Only the
    /// resolves of `frame` itself are marked: what they resolve in turn is kept by what they
    /// make. `frame` runs on one thread, and one property at a time.
    func holdingWeakly<Result, Failure>(at frame: Frame, _ body: () throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        let id = ObjectIdentifier(frame)
        found.withLock { _ = $0.weakHolders.insert(id) }
        defer { found.withLock { _ = $0.weakHolders.remove(id) } }
        return try body()
    }

    /// Whether the dry run has yet to follow a ``Lazy`` of `key` made at `frame`: it follows each
    /// once per registration that makes it and instance that keeps it.
    func isFirstVisit(to key: ServiceKey, at frame: Frame) -> Bool {
        guard let dependent = frame.dependent else { return false }
        let visit = LazyVisit(
            key: key, dependent: ObjectIdentifier(dependent), holder: frame.keeper.map(ObjectIdentifier.init))
        return found.withLock { $0.lazyVisits.insert(visit).inserted }
    }

    private func add(_ rule: LifetimeProblem.Rule, _ holder: Binding, _ dependency: Binding) {
        let problem = LifetimeProblem(
            rule: rule, dependencyScope: dependency.scope.description, holder: holder.step, dependency: dependency.step)
        found.withLock { found in
            if !found.problems.contains(where: { $0.problem == problem }) {
                found.problems.append(Problem(problem: problem, holder: holder, dependency: dependency))
            }
        }
    }
}

/// Why a later synchronous resolve of a service would fail, found without resolving it: what a
/// dry run checks for a ``Lazy`` or ``Provider``.
struct LaterResolveProblem {
    let kind: ResolutionError.Kind
    /// The service, with its name.
    let service: String
    let serviceType: ObjectIdentifier

    /// Why a synchronous resolve of `Service` under `name` from `container` would fail: it is not
    /// registered, or only an async resolve can make it; looked for through `Optional`, ``Lazy``
    /// and ``Provider`` as a resolve does. `nil` if it would not.
    static func of<Service>(_: Service.Type, name: String?, from container: Container) -> LaterResolveProblem? {
        let description = ServiceDescription(Service.self, name: name, arguments: Void.self).description
        if let (entry, _) = container.lookUp(ServiceKey(Service.self, name: name, arguments: Void.self)) {
            guard entry.read().binding.needsAsyncResolve else { return nil }
            return LaterResolveProblem(
                kind: .needsAsyncResolve, service: description, serviceType: ObjectIdentifier(Service.self))
        }
        if let deferred = Service.self as? any DeferredService.Type {
            return deferred.laterResolveProblem(from: container, name: name)
        }
        if let optional = Service.self as? any OptionalService.Type {
            return optional.laterResolveProblem(from: container, name: name)
        }
        return LaterResolveProblem(
            kind: .notRegistered, service: description, serviceType: ObjectIdentifier(Service.self))
    }
}
