public import TraitInjection

extension Container {
    /// The registrations visible from this container and what each resolves, found by a dry run
    /// of each (as ``verify()`` does: factories run, nothing is kept), with the cycles and the
    /// lifetime problems it finds. A parent's registration that this container overrides is a
    /// node too where a parent's singleton, which resolves from the parent, depends on it.
    ///
    /// ```swift
    /// let graph = container.dependencyGraph()
    /// print(graph.mermaid)  // paste into a ```mermaid block
    /// try graph.dot.write(toFile: "graph.dot", atomically: true, encoding: .utf8)  // dot -Tsvg
    /// ```
    public func dependencyGraph() -> DependencyGraph {
        let run = dryRun()
        // The services on each cycle found, from where the cycle starts, in order.
        var cycles: [[ResolutionError.Step]] = []
        for problem in run.problems where problem.kind == .cycle {
            guard let start = problem.path.firstIndex(where: { $0.service == problem.service }) else { continue }
            cycles.append(Array(problem.path[start...]))
        }
        let onCycle = Set(cycles.joined())
        let nodes = run.services.map { service in
            DependencyGraph.Node(
                service: service.step.service,
                scope: service.scope,
                location: service.step.location,
                assembly: service.step.assembly,
                isChecked: service.skippedBecause == nil,
                isOnCycle: onCycle.contains(service.step)
            )
        }
        let edges = run.dependencies.map { from, to in
            let pair = (run.services[from].step, run.services[to].step)
            let isOnCycle = cycles.contains { cycle in
                cycle.indices.contains { cycle[$0] == pair.0 && cycle[($0 + 1) % cycle.count] == pair.1 }
            }
            return DependencyGraph.Edge(from: from, to: to, isOnCycle: isOnCycle)
        }
        let lifetimeEdges = run.lifetimeLinks.map { link in
            DependencyGraph.LifetimeEdge(from: link.holder, to: link.dependency, problem: link.problem)
        }
        return DependencyGraph(nodes: nodes, edges: edges, lifetimeEdges: lifetimeEdges, problems: run.problems)
    }
}

extension ServiceContainer {
    /// The dependency graph with the declared `services` in it, which need not have been used in
    /// this container yet: their defaults are filed first, as ``verify(including:)`` files them.
    ///
    /// ```swift
    /// print(Container.shared.dependencyGraph(including: \.database, \.profile).mermaid)
    /// ```
    public func dependencyGraph(including services: PartialKeyPath<Self>...) -> DependencyGraph {
        _ = fileDefaults(of: services)
        return container.dependencyGraph()
    }
}
