/// What a dry run (`verify()`, `dependencyGraph()`) finds besides its
/// errors: each dependency of one registration on another, and the lifetime problems, one of
/// each; from any task of an async one.
final class DryRunFindings: Sendable {
    /// A registration that depends on another.
    struct Edge {
        let dependent: Binding
        let dependency: Binding
    }

    private struct Found {
        var problems: [LifetimeProblem] = []
        var edges: [Edge] = []
        var edgeKeys: Set<[ObjectIdentifier]> = []
        var lazyVisits: Set<LazyVisit> = []
    }

    private struct LazyVisit: Hashable {
        let key: ServiceKey
        let holder: ObjectIdentifier
    }

    private let found = Locked(Found())
    /// The container the dry run checks.
    let container: Container

    init(checking container: Container) {
        self.container = container
    }

    var problems: [LifetimeProblem] { found.withLock { $0.problems } }

    /// The dependencies found, in the order they were first found.
    var edges: [Edge] { found.withLock { $0.edges } }

    /// Records the dependency of the resolve at `frame` on `dependency`, and checks their
    /// lifetimes.
    ///
    /// The instance that keeps it is the nearest one on the path kept by a shared scope: the
    /// `.graph` and `.transient` instances in between are held by it too.
    func check(_ dependency: Binding, ancestors frame: Frame?) {
        if let dependent = frame?.binding {
            let key = [ObjectIdentifier(dependent), ObjectIdentifier(dependency)]
            found.withLock { found in
                if found.edgeKeys.insert(key).inserted {
                    found.edges.append(Edge(dependent: dependent, dependency: dependency))
                }
            }
        }
        guard let holder = frame?.keeper else { return }
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
    func childOnly(_ key: ServiceKey, from lookup: Container, at frame: Frame?) -> RegistryEntry? {
        guard container !== lookup, let (entry, _) = container.lookUp(key),
            let holder = frame?.keeper
        else { return nil }
        add(.parentNeedsChild, holder, entry.read().binding)
        return entry
    }

    /// Whether the dry run has yet to follow a ``Lazy`` of `key` that `holder`'s kept instance
    /// holds: it follows each once per holder.
    func isFirstVisit(to key: ServiceKey, keptBy holder: Binding) -> Bool {
        found.withLock { $0.lazyVisits.insert(LazyVisit(key: key, holder: ObjectIdentifier(holder))).inserted }
    }

    private func add(_ rule: LifetimeProblem.Rule, _ holder: Binding, _ dependency: Binding) {
        let problem = LifetimeProblem(
            rule: rule, dependencyScope: dependency.scope.description, holder: holder.step, dependency: dependency.step)
        found.withLock { found in
            if !found.problems.contains(problem) { found.problems.append(problem) }
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
