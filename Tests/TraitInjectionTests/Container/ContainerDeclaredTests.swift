import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

/// A type a declared service's override is registered under too.
protocol DeclaredLabelled: AnyObject, Sendable {}

/// What the services these tests declare make.
enum Declared {
    final class Store: DeclaredLabelled {
        let label: String
        init(_ label: String = "default") { self.label = label }
    }
    final class Greeter: Sendable {
        let text: String
        init(_ text: String) { self.text = text }
    }
    final class Ping: Sendable {
        let pong: Pong
        init(_ pong: Pong) { self.pong = pong }
    }
    final class Pong: Sendable {
        init(_: Ping) {}
    }
    final class Holder: Sendable {
        let service: Service
        init(_ service: Service) { self.service = service }
    }
    final class Pair: Sendable {
        let holder: Holder
        let service: Service
        init(_ holder: Holder, _ service: Service) {
            self.holder = holder
            self.service = service
        }
    }
    struct Failure: Error {}

    /// Declared services in property wrappers.
    final class Screen: @unchecked Sendable {
        @Inject(\.declaredStore) var store: Store
        @WeakInject(\.declaredStore) var weakStore: Store?
        @Inject(\.declaredGraphService) var service: Service
        @Inject(\.declaredGraphService) var sameService: Service
    }
}

extension Container {
    var declaredStore: Registered<Declared.Store> {
        self { _ in Declared.Store() }.inScope(.container)
    }
    var declaredTransientStore: Registered<Declared.Store> { self { _ in Declared.Store() }.inScope(.transient) }
    var declaredPair: Registered<Declared.Pair> {
        self { r in Declared.Pair(try r.resolve(Declared.Holder.self), try r.declaredGraphService()) }
    }
    var declaredGreeter: RegisteredWith<String, Declared.Greeter> { self { _, text in Declared.Greeter(text) } }
    var declaredLongGreeter: RegisteredWith<String, Int, Declared.Greeter> {
        self { _, text, times in Declared.Greeter(String(repeating: text, count: times)) }
    }
    var declaredPing: Registered<Declared.Ping> { self { r in Declared.Ping(try r.declaredPong()) } }
    var declaredPong: Registered<Declared.Pong> { self { r in Declared.Pong(try r.declaredPing()) } }
    var declaredFailing: Registered<Declared.Store> { self { _ in throw Declared.Failure() } }
    var declaredGraphService: Registered<Service> { self { _ in Service() } }
    var declaredAsyncStore: Registered<Declared.Store> {
        self { _ async in
            await Task.yield()
            return Declared.Store("async")
        }
        .inScope(.container)
    }
    var declaredAsyncGreeter: Registered<Declared.Greeter> {
        self { r async throws in Declared.Greeter(try await r.declaredAsyncStore.resolveAsync().label) }
    }
    var declaredViaResolver: Registered<Declared.Greeter> {
        self { r in Declared.Greeter(try r.declaredStore().label) }
    }
    /// Provided by whoever registers it; kept per container.
    var declaredPromised: Registered<Declared.Store> { promised().inScope(.container) }
    var declaredNeedsPromised: Registered<Declared.Greeter> {
        self { r in Declared.Greeter(try r.declaredPromised().label) }
    }
    /// A default whose factory resolves through `self`, not its resolver (which it should).
    var declaredViaSelf: Registered<Declared.Greeter> {
        self { _ in Declared.Greeter(try self.declaredStore().label) }
    }
    var declaredContextual: Registered<Declared.Store> {
        self { _ in Declared.Store("live") }
            .onPreview { _ in Declared.Store("preview") }
            .onTest { _ in Declared.Store("test") }
            .onArgument("--declared-context-never-given") { _ in Declared.Store("argument") }
    }
    var declaredByArgument: Registered<Declared.Store> {
        self { _ in Declared.Store("live") }
            .onTest { _ in Declared.Store("test") }
            .onArgument("--declared-context") { _ in Declared.Store("argument") }
    }
    /// A getter that branches on its container (which it should not).
    var declaredBranching: Registered<Declared.Store> {
        parent == nil ? self { _ in Declared.Store("root") } : self { _ in Declared.Store("child") }
    }
    var declaredCompleted: Registered<Declared.Greeter> {
        self { _ in Declared.Greeter("made") }
            .inScope(.container)
            .initCompleted { r, _ in _ = try r.declaredTransientStore() }
    }
}

@Suite("Container: declared services")
struct ContainerDeclaredTests {
    /// A declared service a factory read from its resolver, kept for after its resolve: written
    /// in the factory, read once the resolve has returned.
    final class Kept: @unchecked Sendable {
        var value: DeclaredDependency<Container, Declared.Store>?
    }

    @Test("A declared service resolves its default with nothing registered, once per container in its scope")
    func resolvesItsDefault() throws {
        let container = Container()
        #expect(container.localRegistrations.isEmpty)
        let store = try container.declaredStore()
        #expect(store.label == "default")
        #expect(try container.declaredStore() === store)
        #expect(try Container().declaredStore() !== store)
        #expect(container.localRegistrations.count == 1)
        #expect(try container.declaredTransientStore() !== container.declaredTransientStore())
    }

    @Test("Runtime arguments, one or more, reach the default factory")
    func arguments() throws {
        let container = Container()
        #expect(try container.declaredGreeter("Hi").text == "Hi")
        #expect(try container.declaredLongGreeter("ab", 3).text == "ababab")
    }

    @Test("A declared service and a registered one depend on each other and share one .graph instance")
    func sharesTheGraph() throws {
        let container = Container()
        // Declared → registered → declared: `declaredGraphService` is made once per resolve.
        container.register(Declared.Holder.self) { r in Declared.Holder(try r.declaredGraphService()) }
        let pair = try container.declaredPair()
        #expect(pair.holder.service === pair.service)
        #expect(try container.declaredPair().service !== pair.service)
    }

    @Test("An override replaces the default until reset; it keeps the declared scope")
    func overrideAndReset() throws {
        let container = Container()
        let original = try container.declaredStore()
        container.declaredStore.register { _ in Declared.Store("mock") }
        let mock = try container.declaredStore()
        #expect(mock.label == "mock")
        #expect(try container.declaredStore() === mock)
        container.declaredStore.reset()
        let again = try container.declaredStore()
        #expect(again.label == "default")
        #expect(again !== original)
    }

    @Test("An override can change the scope, and an override before the first use is used")
    func overrideBeforeUse() throws {
        let container = Container()
        container.declaredStore.register { _ in Declared.Store("mock") }.inScope(.transient)
        #expect(try container.declaredStore().label == "mock")
        #expect(try container.declaredStore() !== container.declaredStore())
    }

    @Test("resetDeclaredServices() restores every default of the container")
    func resetEverything() throws {
        let container = Container()
        container.declaredStore.register { _ in Declared.Store("mock") }
        container.declaredGreeter.register { _, text in Declared.Greeter("mock \(text)") }
        container.register(Int.self) { _ in 1 }
        container.resetDeclaredServices()
        #expect(try container.declaredStore().label == "default")
        #expect(try container.declaredGreeter("Hi").text == "Hi")
        #expect(try container.resolve(Int.self) == 1)
    }

    @Test("A child's override is not seen by its parent; a child without one resolves its parent's")
    func childAndParent() throws {
        let parent = Container()
        let child = Container(parent: parent)
        let other = Container(parent: parent)
        parent.declaredStore.register { _ in Declared.Store("parent") }
        child.declaredStore.register { _ in Declared.Store("child") }
        #expect(try child.declaredStore().label == "child")
        #expect(try parent.declaredStore().label == "parent")
        #expect(try other.declaredStore() === parent.declaredStore())
        #expect(other.localRegistrations.isEmpty)
    }

    @Test("A child's first use registers the default in its parent: its children share it and see its overrides")
    func defaultGoesToTheParent() throws {
        let parent = Container()
        let first = Container(parent: parent)
        let second = Container(parent: parent)
        let store = try first.declaredStore()
        #expect(first.localRegistrations.isEmpty)
        #expect(parent.localRegistrations.count == 1)
        #expect(try second.declaredStore() === store)
        #expect(try parent.declaredStore() === store)
        parent.declaredStore.register { _ in Declared.Store("parent") }
        #expect(try first.declaredStore().label == "parent")
    }

    @Test("A test's own container keeps the defaults it uses first: two tests, two singletons")
    func testContainersKeepTheirOwn() throws {
        let shared = Container()
        let first = Container(parent: shared, keepingDeclaredDefaults: true)
        let second = Container(parent: shared, keepingDeclaredDefaults: true)
        #expect(try first.declaredStore() !== second.declaredStore())
        #expect(shared.localRegistrations.isEmpty)
        // What the shared container registers itself, they inherit.
        shared.declaredGreeter.register { _, text in Declared.Greeter("shared \(text)") }
        #expect(try first.declaredGreeter("Hi").text == "shared Hi")
    }

    @Test("A child's reset undoes its override: it resolves its parent's again")
    func childReset() throws {
        let parent = Container()
        let child = Container(parent: parent)
        parent.declaredStore.register { _ in Declared.Store("parent") }
        child.declaredStore.register { _ in Declared.Store("child") }
        #expect(try child.declaredStore().label == "child")
        child.declaredStore.reset()
        #expect(try child.declaredStore() === parent.declaredStore())
        child.declaredGreeter.register { _, text in Declared.Greeter("child \(text)") }
        child.resetDeclaredServices()
        #expect(try child.declaredGreeter("Hi").text == "Hi")
        #expect(try child.declaredStore() === parent.declaredStore())
    }

    @Test("After a child's reset, the parent's registration runs within its resolve: .graph, the child's overrides")
    func childResetRunsTheParentsInTheResolve() throws {
        let parent = Container()
        let child = Container(parent: parent)
        child.register(Declared.Holder.self) { r in Declared.Holder(try r.declaredGraphService()) }
        child.declaredGraphService.register { _ in Service() }
        child.declaredGraphService.reset()
        let pair = try child.declaredPair()
        #expect(pair.holder.service === pair.service)
        // The default resolves its dependencies from the child, which overrides one.
        child.declaredStore.register { _ in Declared.Store("child") }
        child.declaredViaResolver.register { _ in Declared.Greeter("override") }
        child.declaredViaResolver.reset()
        #expect(try child.declaredViaResolver().text == "child")
        #expect(try parent.declaredViaResolver().text == "default")
    }

    @Test("After a child's reset, a parent's override of another kind (sync, async) resolves from the child")
    func childResetFindsTheParentsOfAnotherKind() async throws {
        let parent = Container()
        let child = Container(parent: parent)
        parent.declaredTransientStore.register { (_: AsyncResolution) async in Declared.Store("async parent") }
        child.declaredTransientStore.register { _ in Declared.Store("child") }
        child.declaredTransientStore.reset()
        #expect(try await child.declaredTransientStore.resolveAsync().label == "async parent")
        parent.declaredAsyncStore.register { (_: Resolution) in Declared.Store("sync parent") }
        child.declaredAsyncStore.register { _ async in Declared.Store("child") }
        child.declaredAsyncStore.reset()
        #expect(try child.declaredAsyncStore().label == "sync parent")
    }

    @Test("Overriding and resetting again and again leaves a child as it was")
    func repeatedResets() throws {
        let parent = Container()
        let child = Container(parent: parent)
        for round in 0..<200 {
            child.declaredStore.register { _ in Declared.Store("child \(round)") }
            #expect(try child.declaredStore().label == "child \(round)")
            if round.isMultiple(of: 2) { child.declaredStore.reset() } else { child.resetDeclaredServices() }
            #expect(child.localRegistrations.isEmpty)
            #expect(try child.declaredStore() === parent.declaredStore())
        }
    }

    @Test("A reset lets go of the override's instance, and an override's forwarding registrations go with it")
    func resetLetsGo() throws {
        let parent = Container()
        let child = Container(parent: parent)
        child.declaredStore.register { _ in Declared.Store("child") }.implements((any DeclaredLabelled).self) { $0 }
        weak let made = try child.declaredStore()
        #expect(try child.resolve((any DeclaredLabelled).self) === made)
        #expect(made != nil)
        child.declaredStore.reset()
        #expect(made == nil)
        #expect(throws: ResolutionError.self) { try child.resolve((any DeclaredLabelled).self) }
        #expect(try child.declaredStore() === parent.declaredStore())
    }

    @Test("A reset lets go of the override's closure and what it captured, in the root and in a child")
    func resetLetsGoOfTheClosure() throws {
        final class Mock: Sendable {}
        for inChild in [false, true] {
            let root = Container()
            let container = inChild ? Container(parent: root) : root
            weak var captured: Mock?
            do {
                let mock = Mock()
                captured = mock
                container.declaredGraphService.register { _ in
                    _ = mock
                    return Service()
                }
                .implements(AnyObject.self) { $0 }
            }
            _ = try container.declaredGraphService()
            #expect(captured != nil)
            container.declaredGraphService.reset()
            #expect(captured == nil, "in a child: \(inChild)")
        }
    }

    @Test("A test's container makes its own instance though the container above it has the default")
    func testContainersIgnoreDefaultsAbove() throws {
        let shared = Container()
        let kept = try shared.declaredStore()
        let first = Container(parent: shared, keepingDeclaredDefaults: true)
        let second = Container(parent: shared, keepingDeclaredDefaults: true)
        let mine = try first.declaredStore()
        #expect(mine !== kept)
        #expect(try second.declaredStore() !== mine)
        #expect(try Container(parent: first).declaredStore() === mine)
        // An override above is seen, and seen again after the test's own is reset.
        shared.declaredStore.register { _ in Declared.Store("shared") }
        let third = Container(parent: shared, keepingDeclaredDefaults: true)
        #expect(try third.declaredStore().label == "shared")
        third.declaredStore.register { _ in Declared.Store("test") }
        third.declaredStore.reset()
        #expect(try third.declaredStore().label == "shared")
    }

    @Test("Read from a resolver kept past its resolve: resolving throws resolverExpired")
    func expiredResolver() async throws {
        let container = Container()
        let kept = Kept()
        container.register(Int.self) { r in
            kept.value = r.declaredTransientStore
            return 1
        }
        _ = try container.resolve(Int.self)
        let declared = try #require(kept.value)
        let error = try #require(throws: ResolutionError.self) { try declared() }
        #expect(error.kind == .resolverExpired)
        #expect(try container.declaredTransientStore().label == "default")

        let keptAsync = Kept()
        container.register(String.self) { r async in
            keptAsync.value = r.declaredTransientStore
            return ""
        }
        _ = try await container.resolveAsync(String.self)
        let declaredAsync = try #require(keptAsync.value)
        #expect(throws: ResolutionError.self) { try declaredAsync() }
        await #expect(throws: ResolutionError.self) { try await declaredAsync.resolveAsync() }
    }

    @Test("A default first used through a resolver is the property read on the resolver's container")
    func selfInADefault() throws {
        let container = Container()
        container.declaredStore.register { _ in Declared.Store("mock") }
        container.register(Declared.Greeter.self) { r in try r.declaredViaSelf() }
        // The default's `self` is `container`: it sees the override.
        #expect(try container.resolve(Declared.Greeter.self).text == "mock")
    }

    @Test("@Inject(\\.x) and @WeakInject(\\.x) resolve a declared service from Container.shared")
    func propertyWrappersFromShared() throws {
        let container = Container()
        container.declaredStore.register { _ in Declared.Store("shared") }
        let screen = Container.withShared(container) {
            let screen = Declared.Screen()
            _ = screen.store
            _ = screen.weakStore
            return screen
        }
        #expect(screen.store.label == "shared")
        #expect(screen.weakStore === screen.store)
    }

    @Test("A container fills in @Inject(\\.x) properties within its resolve: one .graph instance")
    func propertyWrappersAutoInjected() throws {
        let container = Container()
        container.register(Declared.Screen.self) { _ in Declared.Screen() }
        let screen = try container.resolve(Declared.Screen.self)
        #expect(screen.service === screen.sameService)
        #expect(screen.store === (try container.declaredStore()))
    }

    @Test("Contexts choose the default: a test run is detected; set explicitly, a preview and an argument win")
    func contexts() throws {
        #expect(RunContext.isTest)
        #expect(try Container().declaredContextual().label == "test")
        defer { RunContext.reset() }
        RunContext.set(preview: true)
        #expect(try Container().declaredContextual().label == "preview")
        RunContext.set(test: false, preview: false)
        #expect(try Container().declaredContextual().label == "live")
        RunContext.set(test: true, arguments: ["App", "--declared-context"])
        #expect(try Container().declaredByArgument().label == "argument")
        // The context chose the default at its first use: an override still wins.
        let container = Container()
        container.declaredByArgument.register { _ in Declared.Store("override") }
        #expect(try container.declaredByArgument().label == "override")
    }

    @Test("A getter that branches on its container, read by a resolver: the declaration read on its container")
    func branchingGetter() async throws {
        let child = Container(parent: Container())
        child.register(Declared.Greeter.self) { r in Declared.Greeter(try r.declaredBranching().label) }
        #expect(try child.resolve(Declared.Greeter.self).text == "child")
        let other = Container(parent: Container())
        other.register(Declared.Greeter.self) { r async throws in
            Declared.Greeter(try await r.declaredBranching.resolveAsync().label)
        }
        #expect(try await other.resolveAsync(Declared.Greeter.self).text == "child")
    }

    @Test("A cycle through two declared services names both properties")
    func cycle() throws {
        let error = try #require(throws: ResolutionError.self) { try Container().declaredPing() }
        #expect(error.kind == .cycle)
        let path = error.path.map(\.service)
        #expect(path.contains("Container.declaredPing (Ping)"))
        #expect(path.contains("Container.declaredPong (Pong)"))
        #expect(error.path.allSatisfy { $0.location.hasPrefix("ContainerDeclaredTests.swift:") })
    }

    @Test("A factory's error names the property and where it is declared")
    func factoryError() throws {
        let error = try #require(throws: ResolutionError.self) { try Container().declaredFailing() }
        #expect(error.kind == .factoryFailed)
        #expect(error.service == "Container.declaredFailing (Store)")
        #expect(error.description.contains("ContainerDeclaredTests.swift:"))
    }

    @Test("initCompleted declared beside the default runs, resolving a declared service")
    func completion() throws {
        #expect(try Container().declaredCompleted().text == "made")
    }

    @Test("An async default resolves with resolveAsync; a synchronous resolve says it needs one")
    func asyncDefault() async throws {
        let container = Container()
        let store = try await container.declaredAsyncStore.resolveAsync()
        #expect(store.label == "async")
        #expect(try await container.declaredAsyncStore.resolveAsync() === store)
        #expect(try await container.declaredStore.resolveAsync() === container.declaredStore())
        let error = try #require(throws: ResolutionError.self) { try Container().declaredAsyncStore() }
        #expect(error.kind == .needsAsyncResolve)
    }

    @Test("An async factory resolves a declared service through its resolver, in its resolve")
    func throughAsyncResolver() async throws {
        let container = Container()
        #expect(try await container.declaredAsyncGreeter.resolveAsync().text == "async")
        let error = await #expect(throws: ResolutionError.self) { try await container.declaredPing.resolveAsync() }
        #expect(error?.kind == .cycle)
    }

    @Test("verify() and the dependency graph show a declared service by its property, once used or overridden")
    func diagnostics() throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.register(Declared.Holder.self) { r in Declared.Holder(try r.declaredGraphService()) }
        _ = try container.declaredPair()
        container.declaredFailing.register { _ in throw Declared.Failure() }
        let report = try #require(throws: VerificationReport.self) { try container.verify() }
        #expect(report.problems.map(\.service) == ["Container.declaredFailing (Store)"])
        let graph = container.dependencyGraph().mermaid
        #expect(graph.contains("Container.declaredPair (Pair)"))
        #expect(graph.contains("Container.declaredGraphService (Service)"))
    }

    @Test("verify(including:) checks declared services never used, and finds a promised() service nobody provides")
    func verifyIncluding() throws {
        let container = Container()
        // Never used: verify() alone sees nothing; verify(including:) files their defaults.
        #expect(try container.verify().problems.isEmpty)
        let report = try #require(throws: VerificationReport.self) {
            try container.verify(including: \.declaredStore, \.declaredFailing, \.declaredPromised)
        }
        #expect(
            report.problems.map(\.service).sorted() == [
                "Container.declaredFailing (Store)", "Container.declaredPromised (Store)",
            ])
        let promise = try #require(report.problems.first { $0.service == "Container.declaredPromised (Store)" })
        #expect(promise.kind == .notRegistered)
        #expect(promise.description.contains("is promised at ContainerDeclaredTests.swift:"))
        #expect(promise.description.contains("`container.declaredPromised.register { r in … }`"))
        #expect(container.localRegistrations.count == 2)
        #expect(container.dependencyGraph(including: \.declaredPair).mermaid.contains("Container.declaredPair (Pair)"))

        // Reached through a dependent: reported once, with its path; provided, it passes.
        let other = Container()
        let reached = try #require(throws: VerificationReport.self) {
            try other.verify(including: \.declaredNeedsPromised, \.declaredPromised)
        }
        #expect(reached.problems.count == 1)
        #expect(reached.problems.first?.path.map(\.service) == ["Container.declaredNeedsPromised (Greeter)"])
        other.declaredPromised.register { _ in Declared.Store("provided") }
        #expect(try other.verify(including: \.declaredNeedsPromised, \.declaredPromised).problems.isEmpty)
    }

    @Test("A promised() service resolves what another module registers, in its declared scope; unprovided, it throws")
    func promised() async throws {
        let container = Container()
        let error = try #require(throws: ResolutionError.self) { try container.declaredNeedsPromised() }
        #expect(error.kind == .notRegistered)
        #expect(error.service == "Container.declaredPromised (Store)")
        #expect(error.path.map(\.service) == ["Container.declaredNeedsPromised (Greeter)"])
        await #expect(throws: ResolutionError.self) { try await container.declaredPromised.resolveAsync() }
        container.declaredPromised.register { _ in Declared.Store("provided") }
        #expect(try container.declaredNeedsPromised().text == "provided")
        #expect(try container.declaredPromised() === container.declaredPromised())
        #expect(try await container.declaredPromised.resolveAsync().label == "provided")
        // A child sees its parent's; a reset takes the provider away again.
        #expect(try Container(parent: container).declaredPromised().label == "provided")
        container.declaredPromised.reset()
        #expect(throws: ResolutionError.self) { try container.declaredPromised() }
    }

    @Test("resolvedOrNil() is the instance kept now, and makes nothing")
    func resolvedOrNil() throws {
        let container = Container()
        #expect(container.declaredStore.resolvedOrNil() == nil)
        #expect(container.localRegistrations.isEmpty)
        let store = try container.declaredStore()
        #expect(container.declaredStore.resolvedOrNil() === store)
        #expect(Container(parent: container).declaredStore.resolvedOrNil() === store)
        _ = try container.declaredTransientStore()
        #expect(container.declaredTransientStore.resolvedOrNil() == nil)
        container.declaredStore.reset()
        #expect(container.declaredStore.resolvedOrNil() == nil)
    }

    @Test("resolveAll and hasRegistration see only what is registered by type")
    func typeQueries() throws {
        let container = Container()
        _ = try container.declaredStore()
        #expect(try container.resolveAll(Declared.Store.self).isEmpty)
        #expect(!container.hasRegistration(Declared.Store.self))
    }

}
