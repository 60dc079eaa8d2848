import Synchronization

/// The lifetime problems a dry run (``Container/verify()``) finds, one of each; from any task of
/// an async one.
final class LifetimeFindings: Sendable {
    private let found = Mutex<[LifetimeProblem]>([])

    var problems: [LifetimeProblem] { found.withLock { $0 } }

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
            if !found.contains(problem) { found.append(problem) }
        }
    }
}
