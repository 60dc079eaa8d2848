import Synchronization
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

/// What the adversarial review of issue 26's engine found: synchronous resolves inside async
/// factories, synchronous resolves that would block a thread an async resolve needs, sibling tasks
/// of one resolve, and cycles through `initCompleted` between tasks. No test blocks a thread of
/// the cooperative pool: a hang ends the test with an issue instead of stalling the run.
@Suite("Container: the seams between sync and async resolves", .timeLimit(.minutes(10)))
struct ContainerSyncAsyncSeamTests {
    final class Config: Sendable {}
    final class Top: Sendable {
        let sameConfig: Bool
        init(sameConfig: Bool = true) { self.sameConfig = sameConfig }
    }
    final class Sibling: Sendable {}
    final class NeedsSibling: Sendable {
        let sibling: Sibling
        init(_ sibling: Sibling) { self.sibling = sibling }
    }
    final class Both: Sendable {
        let same: Bool
        init(_ sibling: Sibling, _ needing: NeedsSibling) { same = needing.sibling === sibling }
    }
    final class ReadsConfig: @unchecked Sendable {
        @Inject var config: Config
        private(set) var read: Config?
        init() { read = config }
    }
    final class P: Sendable {}
    final class Q: Sendable {}

    /// The result of `body`, run in a task of its own, if it ends within `seconds`; else an issue
    /// is recorded and the task is left behind.
    static func ending<Result: Sendable>(
        within seconds: Int = 20,
        _ body: @escaping @Sendable () async throws -> Result
    ) async -> Result? {
        let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
        let ended = Gate()
        Task.detached {
            let result: Swift.Result<Result, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            ended.open()
        }
        for _ in 0..<(seconds * 100) where !ended.opened {
            try? await Task.sleep(for: .milliseconds(10))
        }
        guard let result = outcome.withLock({ $0 }) else {
            Issue.record("did not end within \(seconds) s: it hangs")
            return nil
        }
        switch result {
        case .success(let value): return value
        case .failure(let error):
            Issue.record("threw \(error)")
            return nil
        }
    }

    @Test("A synchronous resolve in an async factory is nested in its resolve: it gets the singleton that resolve made")
    func syncResolveInAsyncFactory() async {
        let container = Container()
        container.register(Config.self) { _ in Config() }.inScope(.container)
        container.register(Top.self) { [unowned container] (r: AsyncResolution) async throws in
            let made = try await r.resolve(Config.self)
            // Claimed by this resolve, published when it ends: a resolve of its own would wait forever.
            return Top(sameConfig: try container.resolve(Config.self) === made)
        }
        let top = await Self.ending { try await container.resolveAsync(Top.self) }
        #expect(top?.sameConfig == true)
    }

    @Test("An @Inject property read in an initializer an async factory calls resolves within that resolve")
    func injectReadInAsyncFactory() async {
        let container = Container()
        container.register(Config.self) { _ in Config() }.inScope(.container)
        container.register(ReadsConfig.self) { (r: AsyncResolution) async throws in
            _ = try await r.resolve(Config.self)
            return ReadsConfig()
        }
        let reads = await Self.ending {
            try await Container.withShared(container) { try await container.resolveAsync(ReadsConfig.self) }
        }
        #expect(reads.map { $0.read === $0.config } == true)
    }

    @Test(
        "A synchronous resolve in a task does not block for what an async resolve is creating; a thread of its own waits"
    )
    func syncResolveInTaskDoesNotBlock() async throws {
        let container = Container()
        let claimed = Gate()
        let release = Gate()
        container.register(Config.self) { _ in Config() }.inScope(.container)
        container.register(Top.self) { (r: AsyncResolution) async throws in
            _ = try await r.resolve(Config.self)
            claimed.open()
            await release.wait()  // Keeps the claim on Config while the resolve goes on.
            return Top()
        }
        let top = Task { try await container.resolveAsync(Top.self) }
        await claimed.wait()

        // In a task (a thread of the cooperative pool): an error at once, which says what to do.
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Config.self) }
        #expect(error?.kind == .deadlock)
        #expect(error?.description.contains("resolveAsync") == true)

        // On a thread of its own: it waits until the async resolve has published the singleton.
        let onThread = Mutex<Config?>(nil)
        let thread = OwnThread {
            let config = try? container.resolve(Config.self)
            onThread.withLock { $0 = config }
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(onThread.withLock { $0 } == nil)
        release.open()
        _ = try await top.value
        await thread.join()
        let published = try await container.resolveAsync(Config.self)
        #expect(onThread.withLock { $0 } === published)
        #expect(try container.resolve(Config.self) === published)
    }

    @Test("Nor does it block for a thread's instance when that thread waits for an async resolve's")
    func syncResolveInTaskDoesNotBlockThroughAThread() async throws {
        let container = Container()
        let claimed = Gate()
        let release = Gate()
        container.register(Config.self) { _ in Config() }.inScope(.container)
        container.register(Top.self) { (r: AsyncResolution) async throws in
            _ = try await r.resolve(Config.self)
            claimed.open()
            await release.wait()
            return Top()
        }
        container.register(Sibling.self) { r in
            _ = try r.resolve(Config.self)
            return Sibling()
        }
        .inScope(.container)
        let top = Task { try await container.resolveAsync(Top.self) }
        await claimed.wait()
        // A thread of its own makes Sibling, and blocks for Config, which the async resolve keeps.
        let onThread = Mutex<Sibling?>(nil)
        let thread = OwnThread {
            let sibling = try? container.resolve(Sibling.self)
            onThread.withLock { $0 = sibling }
        }
        try await Task.sleep(for: .milliseconds(100))
        // In a task, waiting for Sibling would be waiting for the async resolve: refused at once.
        let refused = Mutex<ResolutionError?>(nil)
        let ended = Gate()
        Task.detached {
            do throws(ResolutionError) {
                _ = try container.resolve(Sibling.self)
            } catch {
                refused.withLock { $0 = error }
            }
            ended.open()
        }
        for _ in 0..<2_000 where !ended.opened { try await Task.sleep(for: .milliseconds(10)) }
        #expect(ended.opened, "the resolve in a task blocked")
        #expect(refused.withLock { $0 }?.kind == .deadlock)
        release.open()
        _ = try await top.value
        await thread.join()
        #expect(onThread.withLock { $0 } != nil)
        #expect(try container.resolve(Sibling.self) === onThread.withLock { $0 })
    }

    @Test("Stress: two child tasks' synchronous parts that both wait for a thread's singleton both run again")
    func siblingSynchronousPartsBothSuspend() async {
        final class Made: Sendable {}
        final class First: Sendable {}
        final class Second: Sendable {}
        final class Both: Sendable {}
        var failures: [String] = []
        for _ in 0..<150 {
            let container = Container()
            container.register(Made.self) { _ in
                usleepCompat(20_000)
                return Made()
            }
            .inScope(.container)
            container.register(First.self) { r in
                _ = try r.resolve(Made.self)
                return First()
            }
            container.register(Config.self) { _ in Config() }
            container.register(Second.self) { r in
                // Later than First, so that both parts unwind at different moments.
                for _ in 0..<3_000 { _ = try r.resolve(Config.self) }
                _ = try r.resolve(Made.self)
                return Second()
            }
            container.register(Both.self) { (r: AsyncResolution) async throws in
                async let first = r.resolve(First.self)
                async let second = r.resolve(Second.self)
                _ = try await (first, second)
                return Both()
            }
            let thread = OwnThread { _ = try? container.resolve(Made.self) }
            do {
                _ = try await container.resolveAsync(Both.self)
            } catch {
                failures.append("\(error)")
            }
            await thread.join()
        }
        #expect(failures.isEmpty, "\(failures.prefix(2))")
    }

    @Test("verifyAsync() checks a synchronous resolve in an async factory, as it checks the factory's resolver")
    func verifyAsyncSeesSyncResolvesInAsyncFactories() async {
        final class Held: Sendable {}
        final class Keeper: Sendable {}
        for throughContainer in [false, true] {
            let container = Container()
            container.register(Held.self) { _ in Held() }.inScope(.weak)
            container.register(Keeper.self) { [unowned container] (r: AsyncResolution) async throws in
                _ = throughContainer ? try container.resolve(Held.self) : try await r.resolve(Held.self)
                return Keeper()
            }
            .inScope(.container)
            // A singleton that keeps a `.weak` service: a lifetime problem, found either way.
            let report = await #expect(throws: VerificationReport.self) { try await container.verifyAsync() }
            #expect(report?.lifetimeProblems.count == 1, "through the container: \(throughContainer)")
        }
    }

    @Test("Two child tasks of one resolve: one waits for the singleton the other is completing, with no cycle")
    func siblingTasksShareASingleton() async {
        let container = Container()
        container.register(Sibling.self) { (_: AsyncResolution) async throws in
            try await Task.sleep(for: .milliseconds(20))
            return Sibling()
        }
        .inScope(.container)
        .initCompleted { (_: AsyncResolution, _: Sibling) async throws in try await Task.sleep(for: .milliseconds(50)) }
        container.register(NeedsSibling.self) { (r: AsyncResolution) async throws in
            NeedsSibling(try await r.resolve(Sibling.self))
        }
        container.register(Both.self) { [unowned container] (_: AsyncResolution) async throws in
            async let sibling = container.resolveAsync(Sibling.self)
            async let needing = container.resolveAsync(NeedsSibling.self)
            return try await Both(sibling, needing)
        }
        let both = await Self.ending { try await container.resolveAsync(Both.self) }
        #expect(both?.same == true)
    }

    @Test(
        "Stress: singletons whose initCompleted closures need each other, from two tasks: handed over, each made once")
    func completionCycleBetweenTasks() async {
        let iterations = 300
        var failures: [String] = []
        var madeTwice = 0
        for _ in 0..<iterations {
            let container = Container()
            let madeP = Counter()
            let madeQ = Counter()
            container.register(P.self) { _ in
                madeP.increment()
                usleepCompat(.random(in: 0...200))
                return P()
            }
            .inScope(.container)
            .initCompleted { r, _ in
                usleepCompat(.random(in: 0...200))
                _ = try r.resolve(Q.self)
            }
            container.register(Q.self) { _ in
                madeQ.increment()
                usleepCompat(.random(in: 0...200))
                return Q()
            }
            .inScope(.container)
            .initCompleted { r, _ in
                usleepCompat(.random(in: 0...200))
                _ = try r.resolve(P.self)
            }
            async let p: String? = { () async -> String? in
                do { _ = try await container.resolveAsync(P.self) } catch { return "\(error)" }
                return nil
            }()
            async let q: String? = { () async -> String? in
                do { _ = try await container.resolveAsync(Q.self) } catch { return "\(error)" }
                return nil
            }()
            failures += [await p, await q].compactMap { $0 }
            if madeP.count > 1 || madeQ.count > 1 { madeTwice += 1 }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(madeTwice == 0)
    }

    @Test("A .container factory whose synchronous part unwinds to wait runs again; one instance is kept")
    func unwoundSingletonFactoryRunsAgain() async throws {
        let container = Container()
        let claimed = Gate()
        let release = Gate()
        let runs = Counter()
        container.register(Config.self) { _ in
            claimed.open()
            while !release.opened { pauseCompat(1_000) }
            return Config()
        }
        .inScope(.container)
        container.register(Top.self) { r in
            runs.increment()
            _ = try r.resolve(Config.self)
            return Top()
        }
        .inScope(.container)
        let thread = OwnThread { _ = try? container.resolve(Config.self) }
        await claimed.wait()
        let top = Task { try await container.resolveAsync(Top.self) }
        // Top's factory runs, finds Config being made on the thread, and unwinds to suspend.
        while runs.count == 0 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(200))
        release.open()
        let made = try await top.value
        await thread.join()
        #expect(runs.count == 2)
        #expect(try container.resolve(Top.self) === made)
    }

    @Test("Two threads whose singletons' factories need each other: both fail with the deadlock, no factory runs twice")
    func factoryCycleBetweenThreads() async {
        let container = Container()
        let started = Counter()
        container.register(P.self) { r in
            started.increment()
            while started.count < 2 { pauseCompat(100) }
            _ = try r.resolve(Q.self)
            return P()
        }
        .inScope(.container)
        container.register(Q.self) { r in
            started.increment()
            while started.count < 2 { pauseCompat(100) }
            _ = try r.resolve(P.self)
            return Q()
        }
        .inScope(.container)
        // One slot per thread: ThreadSanitizer does not see a contended `Mutex` (see `Slot`).
        func resolving<Service>(_: Service.Type, into slot: Slot<ResolutionError.Kind?>) -> OwnThread {
            OwnThread {
                do throws(ResolutionError) {
                    _ = try container.resolve(Service.self)
                } catch {
                    slot.update { $0 = error.kind }
                }
            }
        }
        let slots = [Slot<ResolutionError.Kind?>(nil), Slot<ResolutionError.Kind?>(nil)]
        let first = resolving(P.self, into: slots[0])
        let second = resolving(Q.self, into: slots[1])
        await first.join()
        await second.join()
        let errors = slots.compactMap(\.current)
        // The factories truly need each other: both resolves fail with the deadlock the one that
        // closes the circle finds, and neither factory runs a second time.
        #expect(errors == [.deadlock, .deadlock])
        #expect(started.count == 2)
    }
}
