import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

@Suite("Auto-injection: a container fills in the wrapped properties of what it creates")
struct AutoInjectionTests {
    /// Seed 002's registrations: no `initCompleted`, only the wrapped properties.
    func clientServerContainer() -> Container {
        let container = Container()
        container.register((any InjectedClient).self) { _ in AutoClient() }
        container.register((any InjectedServer).self) { _ in AutoServer() }
        return container
    }

    @Test("Seed 002: a strong @Inject and a weak @WeakInject close the cycle to one pair")
    func clientServerCycle() throws {
        let container = clientServerContainer()
        let client = try container.resolve((any InjectedClient).self)
        #expect(client.server.client === client)
        #expect(try container.resolve((any InjectedClient).self) !== client)  // one pair per graph
    }

    @Test("Seed 002: the server's reference to its client really is weak")
    func weakSideIsWeak() throws {
        let container = clientServerContainer()
        var client: (any InjectedClient)? = try container.resolve((any InjectedClient).self)
        weak let weakClient = client
        let server = try #require(client?.server)
        #expect(server.client === client)
        client = nil
        #expect(weakClient == nil)
        #expect(server.client == nil)
    }

    @Test("Properties are resolved from the container that creates the instance, not the shared one")
    func fromTheCreatingContainer() throws {
        let shared = Container()
        shared.register(Service.self) { _ in Service(number: 1) }
        let container = Container()
        container.register(Service.self) { _ in Service(number: 2) }
        container.register(Pair.self) { _ in Pair() }
        try Container.withShared(shared) {
            let pair = try container.resolve(Pair.self)
            #expect(pair.first.number == 2)
        }
    }

    @Test("Properties of one resolution share its graph-scoped services")
    func shareTheGraph() throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.register(Pair.self) { _ in Pair() }
        let pair = try container.resolve(Pair.self)
        #expect(pair.first === pair.second)
        #expect(try container.resolve(Pair.self).first !== pair.first)
    }

    @Test("Superclass properties are injected too")
    func superclassProperties() throws {
        let container = Container()
        container.register(Service.self) { _ in Service(number: 4) }
        container.register(RestaurantLister.self) { _ in RestaurantLister(restaurants: ["Noma"]) }
        container.register(Derived.self) { _ in Derived() }
        let derived = try container.resolve(Derived.self)
        #expect(derived.service.number == 4)
        #expect(derived.lister.restaurants == ["Noma"])
    }

    @Test("The instance's own class decides, not the registered type, on every resolve")
    func dynamicTypeDecides() throws {
        let container = Container()
        let resolves = Counter()
        container.register(RestaurantLister.self) { _ in RestaurantLister(restaurants: ["Noma"]) }
        container.register(Plain.self) { _ in
            resolves.increment() == 1 ? Plain() : PlainWithLister()
        }.inScope(.transient)
        // The first instance has no injected property, which the registration remembers…
        #expect(!(try container.resolve(Plain.self) is PlainWithLister))
        // …yet a subclass instance of the same registration still has its property filled in.
        let subclass = try #require(try container.resolve(Plain.self) as? PlainWithLister)
        // Were it skipped, the first access would resolve it from the shared container instead.
        let shared = Container()
        shared.register(RestaurantLister.self) { _ in RestaurantLister(restaurants: ["Shared"]) }
        Container.withShared(shared) {
            #expect(subclass.lister.restaurants == ["Noma"])
        }
    }

    @Test("A property set by the factory is left alone")
    func setPropertiesAreKept() throws {
        let container = Container()
        let stub = RestaurantLister(restaurants: ["Stub"])
        container.register(RestaurantLister.self) { _ in RestaurantLister() }
        container.register(RestaurantListViewController.self) { _ in
            let viewController = RestaurantListViewController()
            viewController.lister = stub
            return viewController
        }
        #expect(try container.resolve(RestaurantListViewController.self).lister === stub)
    }

    @Test("initCompleted runs after auto-injection, and sees the injected properties")
    func beforeInitCompleted() throws {
        let container = Container()
        let seen = Counter()
        container.register(Service.self) { _ in Service(number: 5) }
        container.register(Pair.self) { _ in Pair() }
            .initCompleted { _, pair in
                for _ in 0..<pair.first.number { seen.increment() }
            }
        _ = try container.resolve(Pair.self)
        #expect(seen.count == 5)
    }

    @Test("A property that cannot be resolved fails the resolve, naming the instance and the property")
    func failureNamesTheProperty() throws {
        let container = Container()
        let line = #line + 1
        container.register((any InjectedClient).self) { _ in AutoClient() }
        let error = try #require(throws: ResolutionError.self) {
            try container.resolve((any InjectedClient).self)
        }
        #expect(error.kind == .notRegistered)
        #expect(error.path.map(\.service) == ["InjectedClient", "@Inject property"])
        #expect(error.path.last?.location == "PropertyWrapperFixtures.swift:\(AutoClient.serverLine)")
        #expect(
            error.description.hasPrefix(
                """
                InjectedServer is not registered, needed by InjectedClient (AutoInjectionTests.swift:\(line)) → \
                @Inject property (PropertyWrapperFixtures.swift:\(AutoClient.serverLine)).
                """
            )
        )
        #expect(throws: VerificationReport.self) { try container.verify() }
    }

    @Test("A resolved value that a @WeakInject property cannot hold fails the resolve, saying why")
    func weakValueFailsTheResolve() throws {
        let container = Container()
        container.register(Int.self) { _ in 3 }
        container.register(WeakNumber.self) { _ in WeakNumber() }
        let error = try #require(throws: ResolutionError.self) {
            try container.resolve(WeakNumber.self)
        }
        #expect(error.kind == .factoryFailed)
        #expect(error.description.contains("which is not a class instance"))
    }

    @Test("Reflection runs once for a type without injected properties, not on every resolve")
    func reflectionIsCached() throws {
        let container = Container()
        container.register(Reflected.self) { _ in Reflected() }.inScope(.transient)
        let before = Reflected.reflections.count
        for _ in 0..<10 {
            _ = try container.resolve(Reflected.self)
        }
        #expect(Reflected.reflections.count - before == 1)
    }

    @Test("autoInject(into:) fills in an instance created elsewhere, within one resolution")
    func autoInjectIntoExisting() throws {
        let container = Container()
        container.register(Service.self) { _ in Service(number: 9) }
        let pair = Pair()
        try container.autoInject(into: pair)
        #expect(pair.first.number == 9)
        #expect(pair.first === pair.second)

        let screen = Screen()  // A struct: its wrappers share their storage with its copies.
        try container.autoInject(into: screen)
        #expect(screen.service.number == 9)
    }

    @Test("autoInject(into:) reports the property it cannot resolve")
    func autoInjectReportsTheProperty() throws {
        let error = try #require(throws: InjectionError.self) {
            try Container().autoInject(into: Pair())
        }
        #expect(error.description.hasPrefix("@Inject property at PropertyWrapperFixtures.swift:"))
        #expect(error.resolutionError?.kind == .notRegistered)
    }
}
