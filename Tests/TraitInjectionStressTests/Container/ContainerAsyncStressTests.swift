import Synchronization
import TestFixtures
import Testing
import TraitInjection

/// Async resolves of one container from many tasks at once: exactly one creation without blocking
/// threads, what failure and cancellation do, publication only after completion, and deadlocks
/// between tasks reported or undone, never hung. Run under TSan, ASan and in release by CI.
@Suite("Container: async resolution under concurrency", .timeLimit(.minutes(10)))
struct ContainerAsyncStressTests {
    /// Far more tasks than the cooperative pool has threads (one per core: 2 here).
    static let tasks = 64

    /// A service that records whether its async `initCompleted` closure has run.
    final class Completed: Sendable {
        private let done = Atomic<Bool>(false)
        var isComplete: Bool { done.load(ordering: .acquiring) }
        func complete() { done.store(true, ordering: .releasing) }
    }

    /// A container whose `.container` `Parent` and `Child` need each other, through async
    /// factories that go on only once both have started.
    static func parentAndChildNeedingEachOther() -> Container {
        let container = Container()
        let started = Counter()
        container.register(Parent.self) { r in
            started.increment()
            while started.count < 2 { await Task.yield() }
            return Parent(child: try await r.resolve(Child.self))
        }
        .inScope(.container)
        container.register(Child.self) { r in
            started.increment()
            while started.count < 2 { await Task.yield() }
            let child = Child()
            child.parent = try await r.resolve(Parent.self)
            return child
        }
        .inScope(.container)
        return container
    }

    @Test("Many more tasks than threads: one factory call, made only after all have asked, one instance")
    func exactlyOnceWithoutBlocking() async throws {
        let container = Container()
        let asked = Counter()
        let calls = Counter()
        container.register(Service.self) { _ in
            calls.increment()
            // Finishes only once every task has asked: were the waiters holding the pool's
            // threads, this would never run again.
            while asked.count < Self.tasks { await Task.yield() }
            return Service(number: 7)
        }
        .inScope(.container)
        let results = await inTasks(Self.tasks) { _ in
            asked.increment()
            return try? await container.resolveAsync(Service.self)
        }
        let instances = results.compactMap { $0 }
        #expect(instances.count == Self.tasks)
        #expect(Set(instances.map(ObjectIdentifier.init)).count == 1)
        #expect(calls.count == 1)
    }

    @Test("A failing creation: its waiters get its error, nothing is kept, the next resolve creates")
    func failureReachesWaiters() async throws {
        let container = Container()
        let asked = Counter()
        let calls = Counter()
        let fails = Atomic<Bool>(true)
        container.register(Service.self) { _ in
            calls.increment()
            while asked.count < Self.tasks { await Task.yield() }
            if fails.load(ordering: .acquiring) { throw Failure() }
            return Service()
        }
        .inScope(.container)
        let errors = await inTasks(Self.tasks) { _ -> ResolutionError? in
            asked.increment()
            do throws(ResolutionError) {
                _ = try await container.resolveAsync(Service.self)
                return nil
            } catch {
                return error
            }
        }
        #expect(
            errors.allSatisfy { $0?.kind == .factoryFailed && $0?.description.contains("database is down") == true })
        // Waiters shared the attempt; only a task that came after a failure created again.
        #expect(calls.count < Self.tasks)
        fails.store(false, ordering: .releasing)
        let made = try await container.resolveAsync(Service.self)
        #expect(try await container.resolveAsync(Service.self) === made)
    }

    @Test("A cancelled waiter stops waiting at once; the creation goes on for the others")
    func cancelledWaiter() async throws {
        let container = Container()
        let gate = Gate()
        let started = Counter()
        container.register(Service.self) { _ in
            started.increment()
            await gate.wait()
            return Service()
        }
        .inScope(.container)
        let creator = Task { try await container.resolveAsync(Service.self) }
        while started.count == 0 { await Task.yield() }
        let waiter = Task { try await container.resolveAsync(Service.self) }
        waiter.cancel()
        // Returns while the creation still waits for the gate.
        let error = await #expect(throws: ResolutionError.self) { try await waiter.value }
        #expect(error?.kind == .cancelled)
        #expect(!gate.opened)
        gate.open()
        let made = try await creator.value
        #expect(try await container.resolveAsync(Service.self) === made)
        #expect(started.count == 1)
    }

    @Test("A cancelled creator hands over: its waiters claim again, one creates, all get that instance")
    func cancelledCreator() async throws {
        let container = Container()
        let gate = Gate()
        let calls = Counter()
        container.register(Service.self) { _ in
            let call = calls.increment()
            if call == 1 { await gate.wait() }
            try Task.checkCancellation()
            return Service(number: call)
        }
        .inScope(.container)
        let creator = Task { try await container.resolveAsync(Service.self) }
        while calls.count == 0 { await Task.yield() }
        let waiters = (0..<8).map { _ in Task { try await container.resolveAsync(Service.self) } }
        for _ in 0..<100 { await Task.yield() }
        creator.cancel()
        gate.open()
        let error = await #expect(throws: ResolutionError.self) { try await creator.value }
        #expect(error?.kind == .cancelled)
        var numbers: Set<Int> = []
        for waiter in waiters { numbers.insert(try await waiter.value.number) }
        #expect(numbers == [2])
        #expect(calls.count == 2)
    }

    @Test("Other tasks get a shared instance only once its async initCompleted closures have run")
    func publicationAfterCompletion() async throws {
        let container = Container()
        let gate = Gate()
        let completing = Counter()
        container.register(Completed.self) { _ in Completed() }
            .inScope(.container)
            .initCompleted { _, completed in
                completing.increment()
                await gate.wait()
                completed.complete()
            }
        let creator = Task { try await container.resolveAsync(Completed.self) }
        while completing.count == 0 { await Task.yield() }
        let readers = (0..<Self.tasks).map { _ in Task { try await container.resolveAsync(Completed.self) } }
        for _ in 0..<100 { await Task.yield() }
        gate.open()
        let made = try await creator.value
        for reader in readers {
            let seen = try await reader.value
            #expect(seen === made)
            #expect(seen.isComplete)
        }
    }

    @Test("Two tasks taking shared instances in opposite orders: the deadlock is undone, both succeed")
    func oppositeOrders() async throws {
        let container = Container()
        let made = Counter()
        let bothHoldOne = Counter()
        for name in ["a", "b"] {
            container.register(Service.self, name: name) { _ in
                await Task.yield()
                return Service(number: made.increment())
            }
            .inScope(.container)
        }
        // Each resolves one singleton, holds it unpublished until its resolve ends, then wants the
        // other's. (Only the first attempt waits for the other task: a retry goes straight on.)
        container.register([Service].self, name: "ab") { r in
            let a = try await r.resolve(Service.self, name: "a")
            if bothHoldOne.increment() <= 2 { while bothHoldOne.count < 2 { await Task.yield() } }
            return [a, try await r.resolve(Service.self, name: "b")]
        }
        container.register([Service].self, name: "ba") { r in
            let b = try await r.resolve(Service.self, name: "b")
            if bothHoldOne.increment() <= 2 { while bothHoldOne.count < 2 { await Task.yield() } }
            return [try await r.resolve(Service.self, name: "a"), b]
        }
        async let first = container.resolveAsync([Service].self, name: "ab")
        async let second = container.resolveAsync([Service].self, name: "ba")
        let (ab, ba) = try await (first, second)
        #expect(ab[0] === ba[0])
        #expect(ab[1] === ba[1])
        #expect(try await container.resolveAsync(Service.self, name: "a") === ab[0])
    }

    @Test("Two shared services that need each other, first asked for on two tasks: errors, no hang, nothing kept")
    func mutualNeedAcrossTasks() async throws {
        let container = Self.parentAndChildNeedingEachOther()
        /// The error a resolve of `service` ended with, if it did.
        @Sendable func failure<Service>(_ service: Service.Type) async -> ResolutionError? {
            do {
                _ = try await container.resolveAsync(service)
                return nil
            } catch {
                return error
            }
        }
        async let parentFailure = failure(Parent.self)
        async let childFailure = failure(Child.self)
        for failure in await [parentFailure, childFailure] {
            let kind = try #require(failure, "resolved services that need each other").kind
            #expect(kind == .deadlock || kind == .cycle)
        }
        let again = await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Parent.self) }
        #expect(again?.kind == .cycle)
    }

    @Test("A factory's child tasks resolve through its resolver in the same graph")
    func childTasks() async throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.register(Counter.self) { _ in Counter() }.inScope(.container)
        container.register([Service].self) { r in
            async let first = r.resolve(Service.self)
            async let second = r.resolve(Service.self)
            let own = try await r.resolve(Service.self)
            let counters = try await withThrowingTaskGroup(of: Counter.self) { group in
                for _ in 0..<Self.tasks { group.addTask { try await r.resolve(Counter.self) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(counters.map(ObjectIdentifier.init)).count == 1)
            // A child task asking twice gets the same instance too.
            async let twice = [r.resolve(Service.self), r.resolve(Service.self)]
            return [try await first, try await second, own, try await r.resolve(Service.self)] + (try await twice)
        }
        let services = try await container.resolveAsync([Service].self)
        // One `.graph` instance for the whole resolve, whichever task asks.
        #expect(Set(services.map(ObjectIdentifier.init)).count == 1)
        #expect(try await container.resolveAsync([Service].self)[0] !== services[0])
    }

    @Test("Child tasks of one resolve asking for a shared instance another of them is making wait for it")
    func siblingsWait() async throws {
        let container = Container()
        let asked = Counter()
        let calls = Counter()
        container.register(Service.self) { _ in
            calls.increment()
            // Made only once every child task has asked for it.
            while asked.count < Self.tasks { await Task.yield() }
            return Service()
        }
        .inScope(.container)
        container.register([Service].self) { r in
            try await withThrowingTaskGroup(of: Service.self) { group in
                for _ in 0..<Self.tasks {
                    group.addTask {
                        asked.increment()
                        return try await r.resolve(Service.self)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        let services = try await container.resolveAsync([Service].self)
        #expect(services.count == Self.tasks)
        #expect(Set(services.map(ObjectIdentifier.init)).count == 1)
        #expect(calls.count == 1)
        #expect(try await container.resolveAsync(Service.self) === services[0])
    }

    @Test("Child tasks of one resolve whose shared services need each other: a cycle error, no hang")
    func siblingsInACycle() async throws {
        let container = Self.parentAndChildNeedingEachOther()
        container.register([AnyObject].self) { r in
            async let parent = r.resolve(Parent.self)
            async let child = r.resolve(Child.self)
            return [try await parent, try await child]
        }
        let error = await #expect(throws: ResolutionError.self) { try await container.resolveAsync([AnyObject].self) }
        #expect(error?.kind == .cycle)
        // Nothing was kept: each alone is a plain cycle.
        let again = await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Parent.self) }
        #expect(again?.kind == .cycle)
    }
}
