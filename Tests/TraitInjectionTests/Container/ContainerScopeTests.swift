import TestFixtures
import Testing
import TraitInjection

@Suite("Container: scopes and lifetimes")
struct ContainerScopeTests {
    /// A service whose two dependencies both need the same `Service`.
    final class Pair: Sendable {
        let first: Service
        let second: Service
        init(_ first: Service, _ second: Service) {
            self.first = first
            self.second = second
        }
    }

    func container(scope: Scope<Service>) -> Container {
        let container = Container()
        container.register(Service.self) { _ in Service() }.inScope(scope)
        container.register(Pair.self) { r in Pair(try r.resolve(Service.self), try r.resolve(Service.self)) }
            .inScope(.transient)
        return container
    }

    @Test("Transient: a new instance everywhere")
    func transient() throws {
        let container = container(scope: .transient)
        let pair = try container.resolve(Pair.self)
        #expect(pair.first !== pair.second)
        #expect(try container.resolve(Service.self) !== container.resolve(Service.self))
    }

    @Test("Graph (the default): one instance per top-level resolve")
    func graph() throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.register(Pair.self) { r in Pair(try r.resolve(Service.self), try r.resolve(Service.self)) }
        let pair = try container.resolve(Pair.self)
        let other = try container.resolve(Pair.self)
        #expect(pair.first === pair.second)
        #expect(pair.first !== other.first)
    }

    @Test("Container: one instance for the container's life, until reset")
    func containerScope() throws {
        let container = container(scope: .container)
        let pair = try container.resolve(Pair.self)
        #expect(pair.first === pair.second)
        #expect(try container.resolve(Service.self) === pair.first)
        container.resetScopedInstances()
        #expect(try container.resolve(Service.self) !== pair.first)
    }

    @Test("testContainerResetsObjectScopeForOneService: resetScopedInstance(of:) drops that service's only")
    func resetOneService() throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }.inScope(.container)
        container.register(Service.self, name: "other") { _ in Service() }.inScope(.container)
        container.register(Service.self) { (_, number: Int) in Service(number: number) }.inScope(.container)
        let (plain, other, numbered) = (
            try container.resolve(Service.self), try container.resolve(Service.self, name: "other"),
            try container.resolve(Service.self, arguments: 1)
        )
        container.resetScopedInstance(of: Service.self)
        #expect(try container.resolve(Service.self) !== plain)
        #expect(try container.resolve(Service.self, name: "other") === other)
        #expect(try container.resolve(Service.self, arguments: 2) === numbered)
        container.resetScopedInstance(of: Service.self, arguments: Int.self)
        #expect(try container.resolve(Service.self, arguments: 3).number == 3)
        container.resetScopedInstance(of: Pair.self)  // Not registered: nothing happens.
    }

    @Test("A child's resets leave its parent's instances alone")
    func childResetLeavesParent() throws {
        let parent = Container()
        parent.register(Service.self) { _ in Service() }.inScope(.container)
        let child = Container(parent: parent)
        let kept = try child.resolve(Service.self)
        child.resetScopedInstances()
        child.resetScopedInstance(of: Service.self)
        #expect(try child.resolve(Service.self) === kept)
        parent.resetScopedInstance(of: Service.self)
        #expect(try child.resolve(Service.self) !== kept)
    }

    @Test("testContainerHasAnyRegistration: hasRegistration looks through the parent chain")
    func hasRegistration() {
        let parent = Container()
        let child = Container(parent: parent)
        parent.register(Service.self) { _ in Service() }
        child.register(Service.self, name: "named") { (_, number: Int) in Service(number: number) }
        #expect(child.hasRegistration(Service.self))
        #expect(!parent.hasRegistration(Service.self, name: "named", arguments: Int.self))
        #expect(child.hasRegistration(Service.self, name: "named", arguments: Int.self))
        #expect(!child.hasRegistration(Service.self, name: "named"))
        #expect(!child.hasRegistration(Service.self, arguments: Int.self))
        #expect(!child.hasRegistration(Pair.self))
        #expect(!child.hasRegistration(Service?.self))
        #expect(!child.hasRegistration(Lazy<Service>.self))
    }

    @Test("Weak: shared while held, a new one once released")
    func weak() throws {
        let container = container(scope: .weak)
        let creations = Counter()
        container.register(Service.self) { _ in
            creations.increment()
            return Service()
        }
        .inScope(.weak)
        var held: Service? = try container.resolve(Service.self)
        #expect(try container.resolve(Service.self) === held)
        #expect(creations.count == 1)
        held = nil
        let fresh = try container.resolve(Service.self)
        #expect(creations.count == 2)
        #expect(try container.resolve(Service.self) === fresh)
    }

    @Test("A registered instance is returned as it is")
    func instance() throws {
        let container = Container()
        let service = Service(number: 7)
        container.register(Service.self, instance: service)
        #expect(try container.resolve(Service.self) === service)
    }

    @Test("Runtime arguments of any arity; their types are part of the key")
    func arguments() throws {
        let container = Container()
        container.register(String.self) { _ in "none" }
        container.register(String.self) { (_, number: Int) in "int \(number)" }
        container.register(String.self) { (_, text: String) in "string \(text)" }
        container.register(String.self) { (_, a: Int, b: String, c: Double) in "\(a) \(b) \(c)" }
        #expect(try container.resolve(String.self) == "none")
        #expect(try container.resolve(String.self, arguments: 3) == "int 3")
        #expect(try container.resolve(String.self, arguments: "x") == "string x")
        #expect(try container.resolve(String.self, arguments: 1, "b", 2.5) == "1 b 2.5")
    }

    @Test("A child container's own registration shadows its parent's; its singletons are its own")
    func childContainers() throws {
        let parent = Container()
        parent.register(Service.self) { _ in Service(number: 1) }.inScope(.container)
        let child = Container(parent: parent)
        #expect(try child.resolve(Service.self) === parent.resolve(Service.self))
        child.register(Service.self) { _ in Service(number: 2) }.inScope(.container)
        #expect(try child.resolve(Service.self).number == 2)
        #expect(try parent.resolve(Service.self).number == 1)
    }

    @Test("A graph of many services still shares each graph-scoped instance")
    func largeGraph() throws {
        final class Node: Sendable {
            let children: [Node]
            init(children: [Node]) { self.children = children }
        }
        let container = Container()
        // Node n depends on every node before it: 40 graph-scoped services in one resolve.
        for index in 0..<40 {
            container.register(Node.self, name: "\(index)") { resolver in
                Node(children: try (0..<index).map { try resolver.resolve(Node.self, name: "\($0)") })
            }
        }
        let root = try container.resolve(Node.self, name: "39")
        #expect(root.children.count == 39)
        for (index, child) in root.children.enumerated() {
            #expect(child.children.count == index)
            for (inner, grandchild) in child.children.enumerated() {
                #expect(grandchild === root.children[inner])
            }
        }
        #expect(try container.resolve(Node.self, name: "39") !== root)
    }

    @Test("Registering a service again lets go of the singleton the old registration kept")
    func replacingReleasesSingleton() throws {
        final class Singleton: Sendable {}
        let container = Container()
        container.register(Singleton.self) { _ in Singleton() }.inScope(.container)
        weak var old: Singleton?
        do {
            let first = try container.resolve(Singleton.self)
            old = first
            #expect(try container.resolve(Singleton.self) === first)
        }
        #expect(old != nil)
        container.register(Singleton.self) { _ in Singleton() }.inScope(.container)
        #expect(old == nil)
        #expect(try container.resolve(Singleton.self) === container.resolve(Singleton.self))
    }

    @Test("A singleton created by a registration replaced while it was being created is not kept")
    func replacedWhileCreating() throws {
        final class Singleton: Sendable {
            let generation: Int
            init(_ generation: Int) { self.generation = generation }
        }
        let container = Container()
        // The first factory replaces its own registration before it returns.
        container.register(Singleton.self) { _ in
            container.register(Singleton.self) { _ in Singleton(2) }.inScope(.container)
            return Singleton(1)
        }
        .inScope(.container)
        weak var first: Singleton?
        do {
            let made = try container.resolve(Singleton.self)
            first = made
            #expect(made.generation == 1)
        }
        // The replaced registration kept nothing: its instance went with its last holder.
        #expect(first == nil)
        let second = try container.resolve(Singleton.self)
        #expect(second.generation == 2)
        #expect(try container.resolve(Singleton.self) === second)
    }
}
