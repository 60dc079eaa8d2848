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

    var problems: [LifetimeProblem] { found.withLock { $0.problems } }

    /// The dependencies found, in the order they were first found.
    var edges: [Edge] { found.withLock { $0.edges } }

    /// Checks the dependency of the resolve running in `ancestors` (innermost first) on
    /// `dependency`, which the dry run found under `key` looking up from `lookup`.
    ///
    /// The instance that keeps it is the nearest ancestor kept in a registration's cell: the
    /// `.graph` and `.transient` instances in between are held by it too.
    func check(
        _ dependency: any AnyRegistration,
        key: ServiceKey,
        from lookup: Container,
        ancestors: some Sequence<any AnyRegistration>
    ) {
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
        // A dry run looks up from the container it runs in; a real resolve of a kept instance
        // looks up from the container that keeps it.
        let owner = holder.owner
        if owner !== lookup, owner.retainedRegistration(for: key) == nil {
            add(.parentNeedsChild, holder, dependency)
        }
    }

    private func add(_ rule: LifetimeProblem.Rule, _ holder: any AnyRegistration, _ dependency: any AnyRegistration) {
        let problem = LifetimeProblem(rule: rule, holder: holder.step, dependency: dependency.step)
        found.withLock { found in
            if !found.problems.contains(problem) { found.problems.append(problem) }
        }
    }
}
