import Synchronization

/// What a dry run (``Container/verify()``, ``Container/dependencyGraph()``) finds besides its
/// errors: each dependency of one registration on another, and the lifetime problems, one of
/// each; from any task of an async one.
final class DryRunFindings: Sendable {
    /// A registration that depends on another.
    struct Edge {
        let dependent: any AnyRegistration
        let dependency: any AnyRegistration
    }

    private struct Found {
        var problems: [LifetimeProblem] = []
        var edges: [Edge] = []
        var edgeKeys: Set<[ObjectIdentifier]> = []
    }

    private let found = Mutex(Found())
    /// The container the dry run checks.
    let container: Container

    init(checking container: Container) {
        self.container = container
    }

    var problems: [LifetimeProblem] { found.withLock { $0.problems } }

    /// The dependencies found, in the order they were first found.
    var edges: [Edge] { found.withLock { $0.edges } }

    /// Records the dependency of the resolve running in `ancestors` (innermost first) on
    /// `dependency`, and checks their lifetimes.
    ///
    /// The instance that keeps it is the nearest ancestor kept in a registration's cell: the
    /// `.graph` and `.transient` instances in between are held by it too.
    func check(_ dependency: any AnyRegistration, ancestors: some Sequence<any AnyRegistration>) {
        if let dependent = ancestors.first(where: { _ in true }) {
            let key = [ObjectIdentifier(dependent), ObjectIdentifier(dependency)]
            found.withLock { found in
                if found.edgeKeys.insert(key).inserted {
                    found.edges.append(Edge(dependent: dependent, dependency: dependency))
                }
            }
        }
        guard let holder = ancestors.first(where: { $0.scope.keepsInstance }) else { return }
        if holder.scope == .container, dependency.scope == .weak {
            add(.singletonKeepsWeak, holder, dependency)
        }
        if holder.reinitializeStrategy == .reUse, dependency.scope.keepsInstance,
            dependency.reinitializeStrategy == .reCreate
        {
            add(.reUseKeepsReCreate, holder, dependency)
        }
    }

    /// For a dependency under `key` that a kept instance, built from its own container's
    /// registrations like a real resolve's, does not find there: if ``container``, which the dry
    /// run checks, registers it, the kept instance belongs to a parent of that container and
    /// needs what only a child registers. Records the problem, and returns that registration for
    /// the dry run to go on with; `nil` if it is not registered there either.
    func childOnly(
        _ key: ServiceKey,
        from lookup: Container,
        ancestors: some Sequence<any AnyRegistration>
    ) -> (any AnyRegistration)? {
        guard container !== lookup, let provided = container.retainedRegistration(for: key),
            let holder = ancestors.first(where: { $0.scope.keepsInstance })
        else { return nil }
        add(.parentNeedsChild, holder, provided)
        return provided
    }

    private func add(_ rule: LifetimeProblem.Rule, _ holder: any AnyRegistration, _ dependency: any AnyRegistration) {
        let problem = LifetimeProblem(rule: rule, holder: holder.step, dependency: dependency.step)
        found.withLock { found in
            if !found.problems.contains(problem) { found.problems.append(problem) }
        }
    }
}
