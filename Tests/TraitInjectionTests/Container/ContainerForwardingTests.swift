import Synchronization
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

protocol Reading: Sendable { var text: String { get } }
protocol Writing: Sendable { func write(_ text: String) }

final class FileStore: Reading, Writing {
    let stored = Mutex("")
    let number: Int
    init(number: Int = 0) { self.number = number }
    var text: String { stored.withLock { $0 } }
    func write(_ text: String) { stored.withLock { $0 = text } }
}

@Suite("Container: type forwarding with implements(_:as:)")
struct ContainerForwardingTests {
    let container = Container()

    /// A value a conversion makes of the service: not the service itself.
    struct Wrapper: Sendable {
        let store: CompletedStore
    }

    final class CompletedStore: @unchecked Sendable {
        var isCompleted = false
        @Inject var injected: Service
    }

    @Test(
        "A transient forwarding whose conversion makes a new value completes and injects the service, then converts it")
    func convertingTransientForwarding() throws {
        container.register(Service.self) { _ in Service(number: 3) }
        container.register(CompletedStore.self) { _ in CompletedStore() }
            .inScope(.transient)
            .initCompleted { _, store in store.isCompleted = true }
            .implements(Wrapper.self) { Wrapper(store: $0) }
        let wrapper = try container.resolve(Wrapper.self)
        #expect(wrapper.store.isCompleted)
        #expect(wrapper.store.injected.number == 3)
    }

    /// Registers in `container` when it goes: held by a conversion closure, it goes when that
    /// closure is replaced.
    final class RegistersWhenReleased: Sendable {
        let container: Container
        init(_ container: Container) { self.container = container }
        deinit { container.register(Service.self, name: "from deinit") { _ in Service(number: 9) } }
    }

    @Test("Registering a service again lets go of its replaced conversion outside every lock: its deinit may register")
    func replacedConversionIsReleasedOutsideTheLock() throws {
        do {
            let captured = RegistersWhenReleased(container)
            container.register(FileStore.self) { _ in FileStore() }
                .implements((any Reading).self) {
                    _ = captured; return $0
                }
        }
        // Replaces the forwarding, and with it the closure holding the last reference.
        container.register(FileStore.self) { _ in FileStore() }.implements((any Reading).self) { $0 }
        #expect(try container.resolve(Service.self, name: "from deinit").number == 9)
    }

    @Test("testContainerResolvesForwardedType: one .container instance under every type")
    func oneInstanceUnderEveryType() throws {
        container.register(FileStore.self) { _ in FileStore() }
            .inScope(.container)
            .implements((any Reading).self) { $0 }
            .implements((any Writing).self) { $0 }
        let writer = try container.resolve((any Writing).self)
        writer.write("hello")
        let reader = try container.resolve((any Reading).self)
        #expect(reader.text == "hello")
        #expect(try reader as? FileStore === container.resolve(FileStore.self))
        #expect(try writer as? FileStore === container.resolve(FileStore.self))
    }

    @Test("testContainerResolvesForwardedTypeWithArguments, testContainerResolvesForwardedTypeGivenCorrectName")
    func nameAndArgumentsApplyToAll() throws {
        container.register(FileStore.self, name: "disk") { (_, number: Int) in FileStore(number: number) }
            .implements((any Reading).self) { $0 }
        #expect((try container.resolve((any Reading).self, name: "disk", arguments: 7) as? FileStore)?.number == 7)
        // testContainerDoesNotResolveForwardedTypeGivenIncorrectName
        #expect(throws: ResolutionError.self) {
            try container.resolve((any Reading).self, name: "memory", arguments: 7)
        }
        #expect(throws: ResolutionError.self) { try container.resolve((any Reading).self, arguments: 7) }
        #expect(throws: ResolutionError.self) { try container.resolve((any Reading).self, name: "disk") }
    }

    @Test("testContainerResolvesOptionalOfFowrardedType, testContainerDoesResolveForwardedLazyType")
    func optionalAndLazyOfAForwardedType() throws {
        container.register(FileStore.self) { _ in FileStore() }.inScope(.container).implements((any Reading).self) {
            $0
        }
        let store = try container.resolve(FileStore.self)
        #expect(try container.resolve((any Reading)?.self) as? FileStore === store)
        #expect(try container.resolve(Lazy<any Reading>.self).value as? FileStore === store)
        #expect(container.hasRegistration((any Reading).self))
    }

    @Test("In the .graph scope, one instance per resolve under every type")
    func graphScope() throws {
        final class Both: Sendable {
            let reader: any Reading
            let writer: any Writing
            init(reader: any Reading, writer: any Writing) { (self.reader, self.writer) = (reader, writer) }
        }
        container.register(FileStore.self) { _ in FileStore() }
            .implements((any Reading).self) { $0 }
            .implements((any Writing).self) { $0 }
        container.autoregister(Both.self, initializer: Both.init)
        let both = try container.resolve(Both.self)
        #expect(both.reader as? FileStore === both.writer as? FileStore)
        #expect(try container.resolve((any Reading).self) as? FileStore !== both.reader as? FileStore)
    }

    @Test("Resetting, reinitializing or replacing the registration drops what is kept under each type")
    func resetsReachForwardedTypes() throws {
        func register() {
            container.register(FileStore.self) { _ in FileStore() }.inScope(.container).implements((any Reading).self) {
                $0
            }
        }
        register()
        func reader() throws -> FileStore? { try container.resolve((any Reading).self) as? FileStore }
        let first = try reader()
        container.resetScopedInstance(of: FileStore.self)
        let second = try reader()
        #expect(try second !== first && second === container.resolve(FileStore.self))
        container.resetScopedInstances()
        let third = try reader()
        #expect(try third !== second && third === container.resolve(FileStore.self))
        container.reinitialize()
        let fourth = try reader()
        #expect(try fourth !== third && fourth === container.resolve(FileStore.self))
        // Replaced without forwarding: the forwarding stays, and follows it, scope and all.
        container.register(FileStore.self) { _ in FileStore(number: 5) }.inScope(.transient)
        let transient = try reader()
        #expect(transient?.number == 5)
        #expect(try reader() !== transient)
        register()
        #expect(try reader()?.number == 0)
        #expect(try reader() === reader())
        // Registered as something else: it forwards no more, and stays so.
        container.register((any Reading).self) { _ in FileStore(number: 9) }
        container.register(FileStore.self) { _ in FileStore(number: 5) }.inScope(.container)
        #expect(try reader()?.number == 9)
        register()  // Declared again: it forwards again.
        #expect(try reader()?.number == 0)
    }

    @Test("Errors, the trace, verify() and the dependency graph show the type asked for, then the registration")
    func diagnosticsShowBoth() throws {
        container.register(FileStore.self) { _ in throw Failure() }.implements((any Reading).self) { $0 }
        let error = #expect(throws: ResolutionError.self) { try container.resolve((any Reading).self) }
        #expect(error?.path.map(\.service) == ["Reading", "FileStore"])
        let events = Mutex<[String]>([])
        container.resolutionTrace = { event in events.withLock { $0.append(event.service) } }
        _ = try? container.resolve((any Reading).self)
        container.resolutionTrace = nil
        #expect(events.withLock { $0 }.prefix(2) == ["Reading", "FileStore"])
        container.register(FileStore.self) { _ in FileStore() }.implements((any Reading).self) { $0 }
        #expect(throws: Never.self) { try container.verify() }
        let graph = container.dependencyGraph()
        let edges = graph.edges.map { (graph.nodes[$0.from].service, graph.nodes[$0.to].service) }
        #expect(edges.contains { $0 == ("Reading", "FileStore") })
    }

    @Test("An async registration is forwarded asynchronously; a main-actor one on the main actor")
    func asyncAndMainActor() async throws {
        container.register(FileStore.self) { _ async in FileStore(number: 1) }.implements((any Reading).self) { $0 }
        #expect((try await container.resolveAsync((any Reading).self) as? FileStore)?.number == 1)
        let error = #expect(throws: ResolutionError.self) { try container.resolve((any Reading).self) }
        #expect(error?.kind == .needsAsyncResolve)
        container.register(FileStore.self, name: "main") { @MainActor _ in FileStore(number: 2) }
            .inScope(.container)
            .implements((any Reading).self) { $0 }
        let reader = try await container.resolveAsync((any Reading).self, name: "main")
        #expect((reader as? FileStore)?.number == 2)
        #expect(try await reader as? FileStore === container.resolveAsync(FileStore.self, name: "main"))
        let offMain = #expect(throws: ResolutionError.self) { try container.resolve((any Reading).self, name: "main") }
        #expect(offMain?.kind == .needsMainActor)
    }

    @Test("forwarding to the service's own type does nothing; a child's override is its own")
    func forwardingEdges() throws {
        container.register(FileStore.self) { _ in FileStore(number: 1) }.implements(FileStore.self) { $0 }
        #expect(try container.resolve(FileStore.self).number == 1)
        // A shared instance is the container's that registered it, under every type it forwards.
        let parent = Container()
        parent.register(FileStore.self) { _ in FileStore(number: 1) }.inScope(.container)
            .implements((any Reading).self) { $0 }
        let child = Container(parent: parent)
        child.register(FileStore.self) { _ in FileStore(number: 2) }.inScope(.container)
        #expect(try (child.resolve((any Reading).self) as? FileStore)?.number == 1)
        child.register(FileStore.self) { _ in FileStore(number: 2) }.inScope(.container)
            .implements((any Reading).self) { $0 }
        #expect(try child.resolve((any Reading).self) as? FileStore === child.resolve(FileStore.self))
    }

    @Test("A .transient forwarding calls the factory and initCompleted itself, one step at its location")
    func transientCallsTheFactory() throws {
        let completed = Mutex(0)
        container.register(FileStore.self) { (_, number: Int) in
            guard number >= 0 else { throw Failure() }
            return FileStore(number: number)
        }
        .inScope(.transient)
        .initCompleted { _, _ in completed.withLock { $0 += 1 } }
        .implements((any Reading).self) { $0 }
        let reader = try container.resolve((any Reading).self, arguments: 3)
        #expect((reader as? FileStore)?.number == 3)
        #expect(try container.resolve((any Reading).self, arguments: 3) as? FileStore !== reader as? FileStore)
        #expect(completed.withLock { $0 } == 2)
        let error = #expect(throws: ResolutionError.self) { try container.resolve((any Reading).self, arguments: -1) }
        #expect(error?.path.map(\.service) == ["Reading (arguments: Int)"])
        #expect(error?.path.first?.location.hasPrefix("ContainerForwardingTests.swift:") == true)
        #expect(error?.path.first?.location.hasSuffix(" via FileStore") == true)
    }
}
