import Synchronization
import TestFixtures
import Testing
import TraitInjection

@Suite("Container: Lazy and Provider")
struct ContainerLazyTests {
    final class Report: Sendable {
        let exporter: Lazy<Service>
        init(exporter: Lazy<Service>) { self.exporter = exporter }
    }

    final class Queue: Sendable {
        let makeJob: Provider<Service>
        init(makeJob: Provider<Service>) { self.makeJob = makeJob }
    }

    /// Needs itself through a `Lazy` it reads in its initializer: a cycle.
    final class SelfReader: Sendable {
        init(_ lazy: Lazy<SelfReader>) throws { _ = try lazy.value }
    }

    final class Screen: @unchecked Sendable {
        @Inject var service: Lazy<Service>
        @Inject var makeService: Provider<Service>
        init() {}
    }

    @Test("A Lazy resolves on first access, once; its copies share the instance")
    func lazyResolvesOnce() throws {
        let container = Container()
        let made = Counter()
        container.register(Service.self) { _ in Service(number: made.increment()) }
        let lazy = try container.resolve(Lazy<Service>.self)
        #expect(made.count == 0)
        let copy = lazy
        let first = try lazy.value
        #expect(made.count == 1)
        #expect(try lazy.value === first)
        #expect(try copy.value === first)
        #expect(made.count == 1)
        // Another Lazy is another first access.
        #expect(try container.resolve(Lazy<Service>.self).value !== first)
    }

    @Test("A Provider resolves on each call, in the container's scopes")
    func providerResolvesEachCall() throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.register(Service.self, name: "shared") { _ in Service() }.inScope(.container)
        let provider = try container.resolve(Provider<Service>.self)
        #expect(try provider() !== provider())
        let shared = try container.resolve(Provider<Service>.self, name: "shared")
        #expect(try shared() === container.resolve(Service.self, name: "shared"))
        let lazyShared = try container.resolve(Lazy<Service>.self, name: "shared")
        #expect(try lazyShared.value === shared())
    }

    @Test("Both resolve from the container that made them: a child's registration wins")
    func fromTheirContainer() throws {
        let parent = Container()
        parent.register(Service.self) { _ in Service(number: 1) }
        parent.register(Report.self) { r in Report(exporter: try r.resolve(Lazy<Service>.self)) }
        parent.register(Queue.self) { r in Queue(makeJob: try r.resolve(Provider<Service>.self)) }
        let child = Container(parent: parent)
        child.register(Service.self) { _ in Service(number: 2) }
        #expect(try child.resolve(Report.self).exporter.value.number == 2)
        #expect(try child.resolve(Queue.self).makeJob().number == 2)
        #expect(try parent.resolve(Report.self).exporter.value.number == 1)
    }

    @Test("A failed first access keeps nothing: the next one resolves again")
    func failureKeepsNothing() throws {
        let container = Container()
        let attempts = Counter()
        container.register(Service.self) { _ in
            if attempts.increment() == 1 { throw Failure() }
            return Service(number: attempts.count)
        }
        let lazy = try container.resolve(Lazy<Service>.self)
        #expect {
            try lazy.value
        } throws: { error in
            guard let error = error as? ResolutionError else { return false }
            return error.kind == .factoryFailed && error.service == "Service"
        }
        #expect(try lazy.value.number == 2)
        #expect(try lazy.value.number == 2)
    }

    @Test("A first access inside a resolve that then fails keeps nothing")
    func firstAccessInFailedResolve() throws {
        let container = Container()
        let made = Counter()
        container.register(Service.self) { _ in Service(number: made.increment()) }
        let lazy = try container.resolve(Lazy<Service>.self)
        container.register(Report.self) { _ in
            #expect(try lazy.value.number == 1)
            throw Failure()
        }
        #expect(throws: ResolutionError.self) { try container.resolve(Report.self) }
        #expect(try lazy.value.number == 2)
        #expect(try lazy.value.number == 2)
        #expect(made.count == 2)
    }

    @Test("A cycle through a Lazy's own first access is reported with its path, not hung")
    func cycleThroughLazy() throws {
        let container = Container()
        container.register(SelfReader.self) { r in try SelfReader(try r.resolve(Lazy<SelfReader>.self)) }
        #expect {
            try container.resolve(SelfReader.self)
        } throws: { error in
            guard let error = error as? ResolutionError else { return false }
            return error.kind == .cycle
                && error.description.contains("→ Lazy<SelfReader> (resolved on first access) → SelfReader.")
        }
    }

    @Test("A Lazy breaks a cycle of initializers: each side resolves the other later")
    func lazyBreaksCycle() throws {
        final class Left: Sendable {
            let right: Lazy<Right>
            init(right: Lazy<Right>) { self.right = right }
        }
        final class Right: Sendable {
            let left: Left
            init(left: Left) { self.left = left }
        }
        let container = Container()
        container.register(Left.self) { r in Left(right: try r.resolve(Lazy<Right>.self)) }.inScope(.container)
        container.register(Right.self) { r in Right(left: try r.resolve(Left.self)) }
        let left = try container.resolve(Left.self)
        #expect(try left.right.value.left === left)
    }

    @Test("They hold their container weakly: no leak, and a clear error once it is gone")
    func weakContainer() throws {
        weak var released: Container?
        var lazy: Lazy<Service>?
        var provider: Provider<Service>?
        do {
            let container = Container()
            container.register(Service.self) { _ in Service() }
            // A singleton holding a Lazy to its own container: no cycle of strong references.
            container.register(Report.self) { r in Report(exporter: try r.resolve(Lazy<Service>.self)) }
                .inScope(.container)
            lazy = try container.resolve(Report.self).exporter
            provider = try container.resolve(Provider<Service>.self)
            released = container
        }
        #expect(released == nil)
        for attempt in [{ try lazy!.value }, { try provider!() }] {
            #expect {
                _ = try attempt()
            } throws: { error in
                guard let error = error as? ResolutionError else { return false }
                return error.kind == .containerReleased && error.description.contains("container that made it")
            }
        }
    }

    @Test("@Inject properties of Lazy and Provider, filled in from Container.shared")
    func injectProperties() throws {
        let container = Container()
        let made = Counter()
        container.register(Service.self) { _ in Service(number: made.increment()) }
        try Container.withShared(container) { () throws in
            let screen = Screen()
            #expect(made.count == 0)
            #expect(try screen.service.value === screen.service.value)
            #expect(try screen.makeService() !== screen.makeService())
            #expect(made.count == 3)
        }
    }

    @Test("verify() checks what a Lazy or Provider needs is registered, without resolving it")
    func verifyChecksDeferred() throws {
        let container = Container()
        // Failing, so that a Lazy resolving it in the dry run would fail Report too.
        container.register(Service.self, name: "failing") { _ in throw Failure() }
        container.register(Report.self) { r in Report(exporter: try r.resolve(Lazy<Service>.self, name: "failing")) }
        container.register(Queue.self) { r in Queue(makeJob: try r.resolve(Provider<Service>.self)) }
        #expect {
            try container.verify()
        } throws: { error in
            guard let report = error as? VerificationReport else { return false }
            return report.problems.count == 2
                && report.description.contains("Service is not registered, needed by Queue (")
                && report.description.contains(") → Provider<Service> (resolved on each call)")
        }
    }

    @Test("resolveAsync and an async factory's resolver make them too")
    func asyncResolves() async throws {
        let container = Container()
        container.register(Service.self) { _ in Service(number: 5) }
        container.register(Report.self) { r in
            await Task.yield()
            return Report(exporter: try await r.resolve(Lazy<Service>.self))
        }
        #expect(try await container.resolveAsync(Report.self).exporter.value.number == 5)
        #expect(try await container.resolveAsync(Provider<Service>.self)().number == 5)
    }

    @Test("A registration with runtime arguments has no Lazy: not registered, with what is")
    func argumentsNotDeferred() throws {
        let container = Container()
        container.register(Service.self) { (_, number: Int) in Service(number: number) }
        #expect {
            try container.resolve(Lazy<Service>.self, arguments: 3)
        } throws: { error in
            (error as? ResolutionError)?.kind == .notRegistered
        }
    }
}
