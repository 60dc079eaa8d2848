import Foundation
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

@Suite("Container: the dependency graph")
struct ContainerDependencyGraphTests {
    final class Engine: Sendable {}
    final class Session: Sendable {}

    final class Car: Sendable {
        let engine: Engine
        init(engine: Engine) { self.engine = engine }
    }

    final class Cache: Sendable {
        let session: Session
        init(session: Session) { self.session = session }
    }

    final class Ping: Sendable {}
    final class Pong: Sendable {}

    /// A container with a dependency, a named service with quotes in its label, a cycle, a
    /// lifetime problem and a registration the dry run skips.
    func sample() -> Container {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inScope(.container)
        container.register(Car.self) { r in Car(engine: try r.resolve(Engine.self)) }
        container.register(Car.self, name: "spare \"one\"") { r in Car(engine: try r.resolve(Engine.self)) }
        container.register(Ping.self) { r in
            _ = try r.resolve(Pong.self)
            return Ping()
        }
        container.register(Pong.self) { r in
            _ = try r.resolve(Ping.self)
            return Pong()
        }
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        container.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        container.register(Engine.self, name: "sized") { (_, size: Int) in Engine() }
        return container
    }

    func index(of service: String, in graph: DependencyGraph) throws -> Int {
        try #require(graph.nodes.firstIndex { $0.service == service })
    }

    @Test("One node per registration, an edge per dependency, cycles and lifetime problems marked")
    func structure() throws {
        let graph = sample().dependencyGraph()
        #expect(graph.nodes.count == 8)
        let car = try index(of: "Car", in: graph)
        let engine = try index(of: "Engine", in: graph)
        let ping = try index(of: "Ping", in: graph)
        let pong = try index(of: "Pong", in: graph)
        let cache = try index(of: "Cache", in: graph)
        let session = try index(of: "Session", in: graph)
        #expect(graph.nodes[engine].scope == "container")
        #expect(graph.nodes[car].location.hasPrefix("ContainerDependencyGraphTests.swift:"))
        let edges = graph.edges.map { "\($0.from)->\($0.to)\($0.isOnCycle ? " cycle" : "")" }
        #expect(edges.contains("\(car)->\(engine)"))
        #expect(edges.contains("\(ping)->\(pong) cycle") && edges.contains("\(pong)->\(ping) cycle"))
        #expect(graph.nodes[ping].isOnCycle && graph.nodes[pong].isOnCycle && !graph.nodes[car].isOnCycle)
        #expect(graph.lifetimeEdges.map { [$0.from, $0.to] } == [[cache, session]])
        #expect(graph.problems.allSatisfy { $0.kind == .cycle } && !graph.problems.isEmpty)
        let sized = try index(of: "Engine (name: \"sized\", arguments: Int)", in: graph)
        #expect(!graph.nodes[sized].isChecked && graph.nodes[car].isChecked)
    }

    @Test("The DOT text is well formed: declared nodes, balanced quotes and braces")
    func dotIsWellFormed() throws {
        let graph = sample().dependencyGraph()
        let lines = graph.dot.split(separator: "\n").map(String.init)
        #expect(lines.first == "digraph Dependencies {" && lines.last == "}")
        var declared: Set<String> = []
        for line in lines.dropFirst().dropLast() {
            #expect(line.hasSuffix(";"), "\(line)")
            // Quotes balance once escaped ones are taken out.
            let unescaped = line.replacing("\\\\", with: "").replacing("\\\"", with: "")
            #expect(unescaped.filter { $0 == "\"" }.count % 2 == 0, "\(line)")
            #expect(!unescaped.contains("{") && !unescaped.contains("}"), "\(line)")
            let statement = line.trimmingCharacters(in: .whitespaces)
            if let match = statement.wholeMatch(of: /(n\d+) \[label=.*/) {
                declared.insert(String(match.1))
            } else if let match = statement.wholeMatch(of: /(n\d+) -> (n\d+)( \[.*\])?;/) {
                #expect(declared.contains(String(match.1)) && declared.contains(String(match.2)), "\(line)")
            }
        }
        #expect(declared.count == graph.nodes.count)
        #expect(graph.dot.contains(#"label="Car (name: \"spare \"one\"\")\ngraph · "#))
    }

    @Test("Where Graphviz is installed, it draws the DOT text")
    func dotRenders() throws {
        let dot = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let dot else { return }  // Not installed: the structure test above still ran.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dot)
        process.arguments = ["-Tsvg"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        input.fileHandleForWriting.write(Data(sample().dependencyGraph().dot.utf8))
        try input.fileHandleForWriting.close()
        let svg = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(svg.contains("<svg") && svg.contains("Cache"))
    }

    @Test("The Mermaid text: a flowchart with escaped labels, cycle and lifetime edges styled")
    func mermaid() throws {
        let graph = sample().dependencyGraph()
        let text = graph.mermaid
        let car = try index(of: "Car", in: graph)
        let engine = try index(of: "Engine", in: graph)
        let cache = try index(of: "Cache", in: graph)
        let session = try index(of: "Session", in: graph)
        #expect(text.hasPrefix("flowchart LR\n"))
        #expect(text.contains("    n\(car) --> n\(engine)\n"))
        #expect(text.contains("    n\(cache) -. keeps .weak .-> n\(session)\n"))
        #expect(text.contains("Car (name: #quot;spare #quot;one#quot;#quot;)<br/>graph · "))
        #expect(text.contains("classDef cycle") && text.contains("linkStyle "))
        // No raw quote inside a label.
        for line in text.split(separator: "\n") where line.contains("[\"") {
            #expect(line.filter { $0 == "\"" }.count == 2, "\(line)")
        }
    }

    @Test("Dependencies through initCompleted are edges too; a clean graph has no problems")
    func completionEdges() throws {
        let container = Container()
        container.register((any ParentProtocol).self) { r in Parent(child: try r.resolve((any ChildProtocol).self)) }
        container.register((any ChildProtocol).self) { _ in Child() }
            .initCompleted { r, child in (child as! Child).parent = try r.resolve((any ParentProtocol).self) }
        let graph = container.dependencyGraph()
        let parent = try index(of: "ParentProtocol", in: graph)
        let child = try index(of: "ChildProtocol", in: graph)
        #expect(Set(graph.edges.map { [$0.from, $0.to] }) == [[parent, child], [child, parent]])
        #expect(graph.problems.isEmpty && graph.lifetimeEdges.isEmpty)
        #expect(!graph.mermaid.contains("classDef"))
    }

    @Test("Mermaid labels escape #, and a line break in a name does not break the line")
    func mermaidEscapes() {
        let container = Container()
        container.register(Engine.self, name: "#quot; and\nnext") { _ in Engine() }
        let text = container.dependencyGraph().mermaid
        #expect(text.contains("Engine (name: #quot;#35;quot; and next#quot;)"))
        #expect(text.split(separator: "\n").count == 2)
    }

    @Test(
        "From a child that overrides a dependency, a parent's singleton keeps its edge to the parent's registration, a node of its own"
    )
    func childOverridingADependencyOfAParentSingleton() throws {
        let parent = Container()
        let parentsEngine = #line + 1
        parent.register(Engine.self) { _ in Engine() }
        parent.register(Car.self) { r in Car(engine: try r.resolve(Engine.self)) }.inScope(.container)
        // What is not registered is no node, also where a factory does without it.
        parent.register(Session.self) { r in
            _ = try? r.resolve(Ping.self)
            return Session()
        }
        let child = Container(parent: parent)
        child.register(Engine.self) { _ in Engine() }
        let graph = child.dependencyGraph()
        #expect(graph.nodes.map(\.service).sorted() == ["Car", "Engine", "Engine", "Session"])
        let car = try index(of: "Car", in: graph)
        let engines = graph.nodes.indices.filter { graph.nodes[$0].service == "Engine" }
        // The child's own Engine, and the parent's that the parent's singleton resolves.
        #expect(engines.count == 2)
        let edges = graph.edges.filter { $0.from == car }
        #expect(edges.count == 1)
        #expect(edges.first.map { graph.nodes[$0.to].location.hasSuffix(":\(parentsEngine)") } == true)
    }

    @Test("A lifetime edge joins the registrations it is about, where two share a file and line")
    func lifetimeEdgeBetweenTheRegistrations() throws {
        func registerSession(in container: Container, _ scope: Scope<Session>) {
            container.register(Session.self) { _ in Session() }.inScope(scope)
        }
        let parent = Container()
        registerSession(in: parent, .weak)
        parent.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        let child = Container(parent: parent)
        registerSession(in: child, .container)
        let graph = child.dependencyGraph()
        let cache = try index(of: "Cache", in: graph)
        let edge = try #require(graph.edges.first { $0.from == cache })
        #expect(graph.nodes[edge.to].scope == "weak")
        #expect(graph.lifetimeEdges.map { [$0.from, $0.to] } == [[cache, edge.to]])
    }

    @Test("Only registrations are nodes: not a Lazy's own, nor one registered while the graph is drawn")
    func onlyRegistrationsAreNodes() throws {
        let container = Container()
        container.register(Engine.self) { _ in Engine() }
        container.register(Car.self) { r in
            let engine = try r.resolve(Lazy<Engine>.self)
            return Car(engine: try engine.value)
        }
        .inScope(.container)
        container.register(Session.self) { [unowned container] _ in
            // Registered again as the dry run goes: what resolves it after this gets the new one.
            container.register(Engine.self) { _ in Engine() }
            return Session()
        }
        container.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }
        let graph = container.dependencyGraph()
        #expect(graph.nodes.map(\.service).sorted() == ["Cache", "Car", "Engine", "Session"])
        let cache = try index(of: "Cache", in: graph)
        let session = try index(of: "Session", in: graph)
        #expect(graph.edges.contains { $0.from == cache && $0.to == session })
    }

    @Test("What a Lazy resolves is an edge of what holds or reads the Lazy, for every registration that does")
    func lazyEdges() throws {
        final class Holder: Sendable {
            let engine: Lazy<Engine>
            init(engine: Lazy<Engine>) { self.engine = engine }
        }
        final class Pair: Sendable {
            let first: Holder
            let second: Holder
            init(first: Holder, second: Holder) { (self.first, self.second) = (first, second) }
        }
        let container = Container()
        container.register(Engine.self) { _ in Engine() }
        // Read in the factory.
        container.register(Car.self) { r in Car(engine: try r.resolve(Lazy<Engine>.self).value) }
        // Held by two `.graph` registrations that a singleton keeps, and by one that none keeps.
        container.register(Holder.self, name: "first") { r in Holder(engine: try r.resolve(Lazy<Engine>.self)) }
            .inScope(.graph)
        container.register(Holder.self, name: "second") { r in Holder(engine: try r.resolve(Lazy<Engine>.self)) }
            .inScope(.graph)
        container.register(Pair.self) { r in
            Pair(first: try r.resolve(Holder.self, name: "first"), second: try r.resolve(Holder.self, name: "second"))
        }
        .inScope(.container)
        container.register(Holder.self) { r in Holder(engine: try r.resolve(Lazy<Engine>.self)) }.inScope(.graph)
        let graph = container.dependencyGraph()
        let engine = try index(of: "Engine", in: graph)
        let toEngine = graph.edges.filter { $0.to == engine }.map { graph.nodes[$0.from].service }
        #expect(toEngine.count == 4 && Set(toEngine).count == 4, "\(toEngine)")
        #expect(toEngine.contains("Car"))
        for name in ["Holder", "Holder (name: \"first\")", "Holder (name: \"second\")"] {
            #expect(toEngine.contains { $0.hasSuffix(name) }, "\(name)")
        }
        #expect(graph.problems.isEmpty && graph.lifetimeEdges.isEmpty)
    }
}
