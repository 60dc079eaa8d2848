import TestFixtures
import Testing
import TraitInjection

@Suite("Container: the seeds' examples")
struct ContainerSeedTests {
    @Test("Seed 004: registration and resolution of protocol services")
    func registrationAndResolution() throws {
        let container = Container()
        container.register((any Animal).self) { _ in Cat(name: "Mimi") }
        container.register((any Person).self) { r in
            PetOwner(name: "Stephen", pet: try r.resolve((any Animal).self))
        }
        let animal = try container.resolve((any Animal).self)
        let person = try container.resolve((any Person).self)
        let pet = try #require(person as? PetOwner).pet
        #expect(animal.name == "Mimi")
        #expect(animal is Cat)
        #expect(person.name == "Stephen")
        #expect(pet.name == "Mimi")
        #expect(pet is Cat)
    }

    @Test("Seed 004: named registrations")
    func namedRegistrations() throws {
        let container = Container()
        container.register((any Animal).self, name: "cat") { _ in Cat(name: "Mimi") }
        container.register((any Animal).self, name: "dog") { _ in Dog(name: "Hachi") }
        let cat = try container.resolve((any Animal).self, name: "cat")
        let dog = try container.resolve((any Animal).self, name: "dog")
        #expect(cat.name == "Mimi" && cat is Cat)
        #expect(dog.name == "Hachi" && dog is Dog)
    }

    @Test("Seed 004: an initializer/property cycle resolves to one pair")
    func initializerPropertyCycle() throws {
        let container = Container()
        container.register((any ParentProtocol).self) { r in Parent(child: try r.resolve((any ChildProtocol).self)) }
        container.register((any ChildProtocol).self) { _ in Child() }
            .initCompleted { r, child in
                (child as! Child).parent = try r.resolve((any ParentProtocol).self)
            }
        let parent = try #require(try container.resolve((any ParentProtocol).self) as? Parent)
        let child = try #require(parent.child as? Child)
        #expect(child.parent === parent)
    }

    @Test("Seed 004: a property/property cycle resolves to one pair")
    func propertyPropertyCycle() throws {
        let container = Container()
        container.register((any ParentProtocol).self) { _ in Parent() }
            .initCompleted { r, parent in
                (parent as! Parent).child = try r.resolve((any ChildProtocol).self)
            }
        container.register((any ChildProtocol).self) { _ in Child() }
            .initCompleted { r, child in
                (child as! Child).parent = try r.resolve((any ParentProtocol).self)
            }
        let parent = try #require(try container.resolve((any ParentProtocol).self) as? Parent)
        let child = try #require(parent.child as? Child)
        #expect(child.parent === parent)
    }

    @Test("Seed 004: an initializer/initializer cycle is reported with its path, not a crash")
    func initializerInitializerCycle() {
        let container = Container()
        let parentLine = #line + 1
        container.register((any ParentProtocol).self) { r in Parent(child: try r.resolve((any ChildProtocol).self)) }
        let childLine = #line + 1
        container.register((any ChildProtocol).self) { r -> any ChildProtocol in
            _ = try r.resolve((any ParentProtocol).self)
            return Child()
        }
        #expect {
            try container.resolve((any ParentProtocol).self)
        } throws: { error in
            let error = error as! ResolutionError
            return error.kind == .cycle
                && error.description.hasPrefix(
                    "Circular dependency: ParentProtocol (ContainerSeedTests.swift:\(parentLine)) → "
                        + "ChildProtocol (ContainerSeedTests.swift:\(childLine)) → ParentProtocol."
                )
        }
    }

    @Test("Seed 002: the client/server cycle resolves to a client and server that point at each other")
    func clientServer() throws {
        let container = Container()
        container.register((any Client).self) { r in ClientImp(server: try r.resolve((any Server).self)) }
        container.register((any Server).self) { _ in ServerImp() }
            .initCompleted { r, server in
                (server as! ServerImp).client = try r.resolve((any Client).self)
            }
        let client = try container.resolve((any Client).self)
        #expect(client.server.client === client)
    }

    @Test("Seed 001: any type can be a service, such as an Int always starting at 10")
    func valueService() throws {
        let container = Container()
        container.register(Int.self) { _ in 10 }
        var value = try container.resolve(Int.self)
        value += 5
        #expect(value == 15)
        #expect(try container.resolve(Int.self) == 10)
    }

    @Test("Seed 001: a singleton is shared; a factory makes a new instance each time")
    func singletonAndFactory() throws {
        let container = Container()
        container.register(Service.self, name: "singleton") { _ in Service() }.inScope(.container)
        container.register(Service.self, name: "factory") { _ in Service() }.inScope(.transient)
        #expect(
            try container.resolve(Service.self, name: "singleton")
                === container.resolve(Service.self, name: "singleton"))
        #expect(
            try container.resolve(Service.self, name: "factory") !== container.resolve(Service.self, name: "factory"))
    }

    @Test("Seed 001: re-initialising re-creates .reCreate instances and keeps .reUse ones")
    func reinitialize() throws {
        let container = Container()
        container.register(Service.self, name: "config") { _ in Service() }.inScope(.container)
        container.register(Service.self, name: "notifications") { _ in Service() }
            .inScope(.container)
            .reinitialize(.reUse)
        let config = try container.resolve(Service.self, name: "config")
        let notifications = try container.resolve(Service.self, name: "notifications")
        container.reinitialize()
        #expect(try container.resolve(Service.self, name: "config") !== config)
        #expect(try container.resolve(Service.self, name: "notifications") === notifications)
    }

    @Test("Seed 001: a client's container falls back to global registrations and lists its own")
    func perClientFallback() throws {
        let global = Container()
        global.register(String.self, name: "logger") { _ in "global logger" }
        global.register(String.self, name: "datafile") { _ in "global datafile" }
        let client = Container(parent: global)
        let line = #line + 1
        client.register(String.self, name: "datafile") { _ in "client datafile" }
        #expect(try client.resolve(String.self, name: "logger") == "global logger")
        #expect(try client.resolve(String.self, name: "datafile") == "client datafile")
        #expect(try global.resolve(String.self, name: "datafile") == "global datafile")
        #expect(try client.resolveAll(String.self) == ["client datafile", "global logger"])
        #expect(client.localRegistrations == ["String (name: \"datafile\") at ContainerSeedTests.swift:\(line)"])
    }

    @Test("Seed 001: a test overrides a service by registering it again")
    func overrideByReregistering() throws {
        let container = Container()
        container.register(String.self) { _ in "live" }
        container.register(String.self) { _ in "stub" }
        #expect(try container.resolve(String.self) == "stub")
        #expect(container.localRegistrations.count == 1)
    }
}
