import TestFixtures
import Testing
import TraitInjection

/// A module's services, apart from the app's: in `Container.shared`, the default.
struct PaymentServices: ServiceContainer {
    static let shared = PaymentServices()
}

/// A module's services in a container of their own.
final class OwnServices: ServiceContainer {
    static let shared = OwnServices()
    let container = Container()
}

extension PaymentServices {
    /// The same name as a service declared on `Container`: another service.
    var declaredStore: Registered<Declared.Store> { self { _ in Declared.Store("payments") }.inScope(.container) }
    var pair: Registered<Declared.Pair> {
        self { r in Declared.Pair(try r.resolve(Declared.Holder.self), try r[\PaymentServices.graphService]()) }
    }
    var graphService: Registered<Service> { self { _ in Service() } }
    var ping: Registered<Declared.Ping> { self { r in Declared.Ping(try r[\PaymentServices.pong]()) } }
    var pong: Registered<Declared.Pong> { self { r in Declared.Pong(try r[\PaymentServices.ping]()) } }
    var promisedStore: Registered<Declared.Store> { promised() }
    var asyncGreeter: Registered<Declared.Greeter> {
        self { r async throws in Declared.Greeter(try await r[\PaymentServices.declaredStore].resolveAsync().label) }
    }
}

extension OwnServices {
    var store: Registered<Declared.Store> { self { _ in Declared.Store("own") }.inScope(.container) }
}

extension Container {
    /// An app's service that depends on a module's, kept in that module's container.
    var declaredOnOwn: Registered<Declared.Greeter> {
        self { r in Declared.Greeter(try r[\OwnServices.store]().label) }
    }
}

/// A screen whose properties resolve a module's services.
final class PaymentScreen: @unchecked Sendable {
    @Inject(\PaymentServices.declaredStore) var store: Declared.Store
    @WeakInject(\OwnServices.store) var own: Declared.Store?
}

@Suite("Container: services declared on an app's own type")
struct DeclaredServiceContainerTests {
    @Test("A module's type declares services in Container.shared: its properties are its own, not Container's")
    func namespaced() throws {
        let container = Container()
        try Container.withShared(container) {
            let payments = try PaymentServices.shared.declaredStore()
            #expect(payments.label == "payments")
            #expect(try container.declaredStore().label == "default")
            #expect(try PaymentServices.shared.declaredStore() === payments)
            #expect(PaymentServices.shared.declaredStore.resolvedOrNil() === payments)
            #expect(PaymentScreen().store === payments)
        }
    }

    @Test("Its factories resolve each other through the resolver, sharing the graph with registered services")
    func sharesTheGraph() throws {
        let container = Container()
        container.register(Declared.Holder.self) { r in Declared.Holder(try r[\PaymentServices.graphService]()) }
        let pair = try Container.withShared(container) { try PaymentServices.shared.pair() }
        #expect(pair.holder.service === pair.service)
    }

    @Test("A cycle through two of its services names both properties, without Container")
    func cycle() throws {
        let error = try #require(
            throws: ResolutionError.self,
            performing: { try Container.withShared(Container()) { try PaymentServices.shared.ping() } })
        #expect(error.kind == .cycle)
        #expect(error.description.contains("ping (Ping)"))
        #expect(error.description.contains("pong (Pong)"))
        #expect(!error.description.contains("Container.ping"))
    }

    @Test("An override in one test's shared container is not seen by another's, and goes with reset()")
    func overridesIsolated() throws {
        let first = Container()
        let second = Container()
        Container.withShared(first) {
            _ = PaymentServices.shared.declaredStore.register { _ in Declared.Store("stub") }
        }
        #expect(try Container.withShared(first) { try PaymentServices.shared.declaredStore() }.label == "stub")
        #expect(try Container.withShared(second) { try PaymentServices.shared.declaredStore() }.label == "payments")
        Container.withShared(first) { PaymentServices.shared.declaredStore.reset() }
        #expect(try Container.withShared(first) { try PaymentServices.shared.declaredStore() }.label == "payments")
    }

    @Test("A type with a container of its own keeps its services there, whoever resolves them")
    func ownContainer() throws {
        let app = Container()
        let greeter = try app.declaredOnOwn()
        let store = try OwnServices.shared.store()
        #expect(greeter.text == "own")
        #expect(OwnServices.shared.store.resolvedOrNil() === store)
        #expect(app.localRegistrations.allSatisfy { !$0.contains("store") })
        let screen = Container.withShared(app) { PaymentScreen() }
        #expect(screen.own === store)
        // A child of its container resolves through the child: its override wins there.
        let child = Container(parent: OwnServices.shared.container)
        child.register(Declared.Store.self) { _ in Declared.Store("unused") }
        #expect(try child.declaredOnOwn().text == "own")
    }

    @Test("Async factories resolve its services through the resolver")
    func async() async throws {
        let container = Container()
        let greeter = try await Container.withShared(container) {
            try await PaymentServices.shared.asyncGreeter.resolveAsync()
        }
        #expect(greeter.text == "payments")
    }

    @Test("verify(including:) on the type files its defaults and reports a promise nobody kept, by its property")
    func verifies() throws {
        let container = Container()
        let report = try #require(
            throws: VerificationReport.self,
            performing: {
                try Container.withShared(container) {
                    try PaymentServices.shared.verify(including: \.declaredStore, \.promisedStore)
                }
            })
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.description.contains("promisedStore") == true)
        #expect(container.localRegistrations.contains { $0.hasPrefix("declaredStore") })
        let graph = Container.withShared(container) {
            PaymentServices.shared.dependencyGraph(including: \.graphService)
        }
        #expect(graph.nodes.contains { $0.service.hasPrefix("graphService") })
    }
}
