public import TraitInjection

/// The registrations visible from a container and what each resolves, found by the same dry run
/// as `verify()`, to draw as Graphviz DOT or as Mermaid text.
///
/// ```swift
/// print(container.dependencyGraph().mermaid)
/// // flowchart LR
/// //     n0["Animal<br/>graph · App.swift:12"]
/// //     n1["Person<br/>graph · App.swift:14"]
/// //     n1 --> n0
/// ```
///
/// Cycles are drawn in red, and each `LifetimeProblem` as a dashed orange edge from the instance
/// that keeps to the one it keeps. A registration the dry run cannot resolve (it takes runtime
/// arguments, awaits, or runs on the main actor off it) is a node with a dotted border and no
/// edges of its own.
public struct DependencyGraph: Sendable {
    /// One registration.
    public struct Node: Sendable, Hashable {
        /// The service, with its name and argument types: `Animal (name: "dog")`.
        public let service: String
        /// Its scope: `transient`, `graph`, `container` or `weak`.
        public let scope: String
        /// Where it was registered, as `File.swift:12`.
        public let location: String
        /// The `Assembly` it came from, if any.
        public let assembly: String?
        /// Whether the dry run resolved it.
        public let isChecked: Bool
        /// Whether it is on a cycle that the dry run found.
        public let isOnCycle: Bool
    }

    /// One service resolving another while it is made (or completed, in `initCompleted`).
    public struct Edge: Sendable, Hashable {
        /// The index in ``DependencyGraph/nodes`` of the service that resolves.
        public let from: Int
        /// The index of the service resolved.
        public let to: Int
        /// Whether the edge is on a cycle.
        public let isOnCycle: Bool
    }

    /// A lifetime problem, between two nodes.
    public struct LifetimeEdge: Sendable, Hashable {
        /// The index of the instance that keeps the other.
        public let from: Int
        /// The index of the one kept, or needed.
        public let to: Int
        /// The problem.
        public let problem: LifetimeProblem
    }

    /// The registrations: the container's own, then those of its parents that it does not
    /// override, each container's sorted by description.
    public let nodes: [Node]
    /// The dependencies, in the order the dry run found them.
    public let edges: [Edge]
    /// The lifetime problems.
    public let lifetimeEdges: [LifetimeEdge]
    /// What the dry run could not resolve, as `verify()` reports it.
    public let problems: [ResolutionError]

    /// The graph in Graphviz's DOT language: `dot -Tsvg graph.dot -o graph.svg` draws it.
    public var dot: String {
        var lines = [
            "digraph Dependencies {",
            "    rankdir=LR;",
            "    node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];",
        ]
        for (index, node) in nodes.enumerated() {
            var attributes = ["label=\"\(Self.dotEscaped(node.service))\\n\(Self.dotEscaped(node.details))\""]
            if node.isOnCycle { attributes.append("color=\"#cc0000\", penwidth=2") }
            if !node.isChecked { attributes.append("style=\"rounded,dotted\"") }
            lines.append("    n\(index) [\(attributes.joined(separator: ", "))];")
        }
        for edge in edges {
            lines.append("    n\(edge.from) -> n\(edge.to)\(edge.isOnCycle ? " [color=\"#cc0000\", penwidth=2]" : "");")
        }
        for edge in lifetimeEdges {
            lines.append(
                "    n\(edge.from) -> n\(edge.to) [style=dashed, color=\"#e07000\", label=\"\(edge.label)\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart, which GitHub and many editors draw from a ` ```mermaid `
    /// block.
    public var mermaid: String {
        var lines = ["flowchart LR"]
        for (index, node) in nodes.enumerated() {
            lines.append(
                "    n\(index)[\"\(Self.mermaidEscaped(node.service))<br/>\(Self.mermaidEscaped(node.details))\"]")
        }
        // Links are numbered in the order they are written, the edges first.
        let links = edges.indices.filter { edges[$0].isOnCycle }
        for edge in edges {
            lines.append("    n\(edge.from) --> n\(edge.to)")
        }
        for edge in lifetimeEdges {
            lines.append("    n\(edge.from) -. \(edge.label) .-> n\(edge.to)")
        }
        let cycle = nodes.indices.filter { nodes[$0].isOnCycle }
        if !cycle.isEmpty {
            lines.append("    classDef cycle stroke:#cc0000,stroke-width:2px")
            lines.append("    class \(cycle.map { "n\($0)" }.joined(separator: ",")) cycle")
        }
        if !links.isEmpty {
            lines.append(
                "    linkStyle \(links.map(String.init).joined(separator: ",")) stroke:#cc0000,stroke-width:2px")
        }
        let unchecked = nodes.indices.filter { !nodes[$0].isChecked }
        if !unchecked.isEmpty {
            lines.append("    classDef unchecked stroke-dasharray:3 3")
            lines.append("    class \(unchecked.map { "n\($0)" }.joined(separator: ",")) unchecked")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `"\` escaped for a DOT string.
    static func dotEscaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }

    /// `#`, quotes and angle brackets as Mermaid entities, and line breaks as spaces, for a quoted
    /// label.
    static func mermaidEscaped(_ text: String) -> String {
        text.replacing("#", with: "#35;").replacing("\"", with: "#quot;").replacing("<", with: "#lt;")
            .replacing(">", with: "#gt;").replacing("\r\n", with: " ").replacing("\n", with: " ")
            .replacing("\r", with: " ").replacing("\t", with: " ")
    }
}

extension DependencyGraph.Node {
    /// `scope · File.swift:12`, and the assembly.
    var details: String {
        "\(scope) · \(location)" + (assembly.map { " · \($0)" } ?? "")
    }
}

extension DependencyGraph.LifetimeEdge {
    /// What the dashed edge says.
    var label: String {
        switch problem.rule {
        case .singletonKeepsWeak: "keeps .weak"
        case .singletonKeepsAppScoped: "keeps .\(problem.dependencyScope)"
        case .reUseKeepsReCreate: "keeps .reCreate"
        case .parentNeedsChild: "needs, child only"
        case .parentIgnoresChild: "optional, child only"
        }
    }
}
