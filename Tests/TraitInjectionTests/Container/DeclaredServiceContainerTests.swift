import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

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

/// A module's services in a child container of a root of its own.
final class ChildContainerServices: ServiceContainer {
    static let shared = ChildContainerServices()
    static let root = Container()
    let container = Container(parent: ChildContainerServices.root)
}

extension ChildContainerServices {
    var processor: Registered<Declared.Store> { self { _ in Declared.Store("default") } }
}

/// Modules that share a declaration in a protocol's extension: one service, keyed by its place.
protocol SharedDeclarations: ServiceContainer {}
extension SharedDeclarations {
    var sharedStore: Registered<Declared.Store> { self { _ in Declared.Store("\(Self.self)") }.inScope(.container) }
}
struct FirstModule: SharedDeclarations { static let shared = FirstModule() }
struct SecondModule: SharedDeclarations { static let shared = SecondModule() }

extension Container {
    var declaredOnChildContainer: Registered<Declared.Store> {
        self { r in try r[\ChildContainerServices.processor]() }
    }
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

    @Test("A type in a child container: its override wins over the default filed in the child's root (review)")
    func childContainerOverride() throws {
        let services = ChildContainerServices.shared
        let root = ChildContainerServices.root
        services.processor.register { _ in Declared.Store("stub") }
        #expect(try root.declaredOnChildContainer().label == "stub")
        services.processor.reset()
        // Files the default in the child's root, where declared defaults are kept.
        #expect(try services.processor().label == "default")
        services.processor.register { _ in Declared.Store("stub") }
        #expect(try services.processor().label == "stub")
        // Resolved from the root, whose lookup holds the default: the type's container decides.
        #expect(try root.declaredOnChildContainer().label == "stub")
        #expect(try Container(parent: root).declaredOnChildContainer().label == "stub")
        services.processor.reset()
    }

    @Test("A declaration in a protocol's extension is one service for every adopting type, as documented")
    func protocolExtensionIsOneService() throws {
        try Container.withShared(Container()) {
            let first = try FirstModule.shared.sharedStore()
            #expect(first.label == "FirstModule")
            #expect(try SecondModule.shared.sharedStore() === first)
        }
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
