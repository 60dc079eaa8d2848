import Synchronization
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

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

    final class Holder: Sendable {
        init(_: Lazy<Service?>, _: Provider<Lazy<Service>>) {}
    }

    final class AsyncHolder: Sendable {
        init(_: Lazy<Clock>) {}
    }

    final class Clock: Sendable {}

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

    @Test("A Lazy breaks a cycle of initializers; with the way back weak, everything is freed")
    func lazyBreaksCycle() throws {
        final class Left: Sendable {
            let right: Lazy<Right>
            init(right: Lazy<Right>) { self.right = right }
        }
        final class Right: Sendable {
            weak let left: Left?
            init(left: Left) { self.left = left }
        }
        weak var releasedContainer: Container?
        weak var releasedLeft: Left?
        weak var releasedRight: Right?
        do {
            let container = Container()
            container.register(Left.self) { r in Left(right: try r.resolve(Lazy<Right>.self)) }.inScope(.container)
            container.register(Right.self) { r in Right(left: try r.resolve(Left.self)) }
            let left = try container.resolve(Left.self)
            let right = try left.right.value
            #expect(right.left === left)
            (releasedContainer, releasedLeft, releasedRight) = (container, left, right)
        }
        #expect(releasedContainer == nil && releasedLeft == nil && releasedRight == nil)
    }

    @Test("A Lazy read by a completion of the resolve that makes its service: a cycle, not a half-built one")
    func lazyInCompletion() throws {
        final class Ready: Sendable {
            let isReady = Counter()
            let service: Service
            init(service: Service) { self.service = service }
        }
        let container = Container()
        let lazy = Mutex<Lazy<Ready>?>(nil)
        let seen = Mutex<String?>(nil)
        // Service's completion is queued before Ready's, so it runs first.
        container.register(Service.self) { _ in Service() }.initCompleted { _, _ in
            let ready = lazy.withLock { $0! }
            do throws(ResolutionError) {
                let made = try ready.value
                seen.withLock { $0 = "ready \(made.isReady.count)" }
            } catch {
                seen.withLock { $0 = "\(error.kind)" }
            }
        }
        container.register(Ready.self) { r in Ready(service: try r.resolve(Service.self)) }
            .inScope(.container)
            .initCompleted { _, ready in ready.isReady.increment() }
        lazy.withLock { $0 = try? container.resolve(Lazy<Ready>.self) }
        #expect(try lazy.withLock { $0! }.value.isReady.count == 1)
        #expect(seen.withLock { $0 } == "cycle")
    }

    @Test("A Lazy first read inside another resolve still answers once its container is gone")
    func firstReadNestedThenReleased() throws {
        var report: Report?
        do {
            let container = Container()
            container.register(Service.self) { _ in Service(number: 3) }.inScope(.container)
            container.register(Report.self) { r in
                let exporter = try r.resolve(Lazy<Service>.self)
                _ = try exporter.value
                return Report(exporter: exporter)
            }
            report = try container.resolve(Report.self)
        }
        #expect(try report?.exporter.value.number == 3)
    }

    @Test("A Lazy keeps what it resolved: a .weak service lives with it, a reset does not reach it")
    func lazyKeeps() throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }.inScope(.weak)
        container.register(Service.self, name: "reset") { _ in Service() }.inScope(.container)
        let lazy = try container.resolve(Lazy<Service>.self)
        weak var weakService: Service?
        do { weakService = try lazy.value }
        #expect(weakService != nil)
        let kept = try container.resolve(Lazy<Service>.self, name: "reset")
        let provider = try container.resolve(Provider<Service>.self, name: "reset")
        let first = try kept.value
        container.resetScopedInstances()
        #expect(try kept.value === first)
        #expect(try provider() !== first)
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

    @Test("verify() looks through Optional, Lazy and Provider, and fails a Lazy of an async service")
    func verifyLooksThrough() throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.autoregister(Holder.self, initializer: Holder.init)
        try container.verify()
        container.register(Clock.self) { _ in
            await Task.yield()
            return Clock()
        }
        container.autoregister(AsyncHolder.self, initializer: AsyncHolder.init)
        #expect {
            try container.verify()
        } throws: { error in
            guard let report = error as? VerificationReport, report.problems.count == 1 else { return false }
            let problem = report.problems[0]
            return problem.kind == .needsAsyncResolve && problem.service == "Clock"
                && problem.path.map(\.service) == ["AsyncHolder", "Lazy<Clock>"]
        }
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
