extension Container {
    /// The registrations visible from this container and what each resolves, found by a dry run
    /// of each (as ``verify()`` does: factories run, nothing is kept), with the cycles and the
    /// lifetime problems it finds.
    ///
    /// ```swift
    /// let graph = container.dependencyGraph()
    /// print(graph.mermaid)  // paste into a ```mermaid block
    /// try graph.dot.write(toFile: "graph.dot", atomically: true, encoding: .utf8)  // dot -Tsvg
    /// ```
    public func dependencyGraph() -> DependencyGraph {
        let run = dryRun()
        var index: [ObjectIdentifier: Int] = [:]
        for (position, binding) in run.bindings.enumerated() {
            index[ObjectIdentifier(binding)] = position
        }
        // The services on each cycle found, from where the cycle starts, in order.
        var cycles: [[ResolutionError.Step]] = []
        for problem in run.problems where problem.kind == .cycle {
            guard let start = problem.path.firstIndex(where: { $0.service == problem.service }) else { continue }
            cycles.append(Array(problem.path[start...]))
        }
        let onCycle = Set(cycles.joined())
        let skipped = Set(
            run.bindings.filter { binding in
                run.skipped.contains { $0.hasPrefix(binding.summary + " (") }
            }.map(ObjectIdentifier.init))
        let nodes = run.bindings.map { binding in
            let step = binding.step
            return DependencyGraph.Node(
                service: step.service,
                scope: "\(binding.scope)",
                location: step.location,
                assembly: step.assembly,
                isChecked: !skipped.contains(ObjectIdentifier(binding)),
                isOnCycle: onCycle.contains(step)
            )
        }
        let edges = run.findings.edges.compactMap { edge -> DependencyGraph.Edge? in
            guard let from = index[ObjectIdentifier(edge.dependent)], let to = index[ObjectIdentifier(edge.dependency)]
            else { return nil }
            let pair = (edge.dependent.step, edge.dependency.step)
            let isOnCycle = cycles.contains { cycle in
                cycle.indices.contains { cycle[$0] == pair.0 && cycle[($0 + 1) % cycle.count] == pair.1 }
            }
            return DependencyGraph.Edge(from: from, to: to, isOnCycle: isOnCycle)
        }
        let steps = Dictionary(
            nodes.indices.map { (run.bindings[$0].step, $0) }, uniquingKeysWith: { first, _ in first })
        let lifetimeEdges = run.findings.problems.compactMap { problem -> DependencyGraph.LifetimeEdge? in
            guard let from = steps[problem.holder], let to = steps[problem.dependency] else { return nil }
            return DependencyGraph.LifetimeEdge(from: from, to: to, problem: problem)
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
