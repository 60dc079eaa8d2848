import Synchronization
import TestFixtures
import Testing
import TraitInjection

/// A declared singleton counting what its default factory makes.
final class CountedStore: Sendable {
    static let made = Atomic<Int>(0)
    init() { Self.made.add(1, ordering: .relaxed) }
}

extension Container {
    var countedStore: Registered<CountedStore> { self { _ in CountedStore() }.inScope(.container) }
    var asyncStore: Registered<AsyncStore> { self { _ async in AsyncStore() } }
}

/// A declared service with an async default, registered under a protocol too.
final class AsyncStore: AsyncReading {}
protocol AsyncReading: Sendable {}

@Suite("Container: declared services under contention", .serialized)
struct ContainerDeclaredStressTests {
    @Test("The first use registers the default exactly once, from 8 threads and 100 tasks at once")
    func exactlyOnce() async throws {
        for _ in 0..<20 {
            let container = Container()
            let before = CountedStore.made.load(ordering: .relaxed)
            let start = Gate()
            let threads = (0..<8).map { _ in
                OwnThread {
                    while !start.opened { usleepCompat(10) }
                    _ = try? container.countedStore()
                }
            }
            async let tasks = inTasks(100) { _ in
                await start.wait()
                return try? await container.countedStore.resolveAsync()
            }
            start.open()
            let stores = await tasks
            for thread in threads { await thread.join() }
            let made = try container.countedStore()
            #expect(stores.allSatisfy { $0 === made })
            #expect(CountedStore.made.load(ordering: .relaxed) - before == 1)
            #expect(container.localRegistrations.count == 1)
        }
    }

    @Test("Overrides and resets racing resolves: each resolve gets the default's instance or the override's")
    func overridesRacingResolves() async throws {
        let container = Container()
        let stop = Gate()
        let writer = OwnThread {
            var round = 0
            while !stop.opened {
                round += 1
                if round.isMultiple(of: 2) {
                    container.countedStore.register { _ in CountedStore() }.inScope(.transient)
                } else {
                    container.countedStore.reset()
                }
            }
        }
        let resolved = await inTasks(8) { _ in
            var resolved = 0
            for _ in 0..<2_000 where (try? container.countedStore()) != nil { resolved += 1 }
            return resolved
        }
        stop.open()
        await writer.join()
        #expect(resolved.allSatisfy { $0 == 2_000 })
        // The writer ended with an override or a reset (which unregisters it): one registration,
        // or none until the next resolve files the default.
        _ = try container.countedStore()
        #expect(container.localRegistrations.count == 1)
    }

    @Test("A child's overrides and resets racing resolves from it: each gets the parent's instance or an override's")
    func childResetsRacingResolves() async throws {
        let parent = Container()
        let child = Container(parent: parent)
        let inherited = try parent.countedStore()
        let stop = Gate()
        let writer = OwnThread {
            var round = 0
            while !stop.opened {
                round += 1
                switch round % 3 {
                case 0: child.countedStore.register { _ in CountedStore() }
                case 1: child.countedStore.reset()
                default: child.resetDeclaredServices()
                }
            }
        }
        let counts = await inTasks(8) { _ in
            var (fromParent, overridden) = (0, 0)
            for _ in 0..<2_000 {
                guard let store = try? child.countedStore() else { continue }
                if store === inherited { fromParent += 1 } else { overridden += 1 }
            }
            return (fromParent, overridden)
        }
        stop.open()
        await writer.join()
        #expect(counts.allSatisfy { $0.0 + $0.1 == 2_000 })
        child.countedStore.reset()
        #expect(try child.countedStore() === inherited)
        #expect(child.localRegistrations.isEmpty)
    }

    @Test(
        "Resolves waiting for an override's instance when it is reset resolve the default, as if the reset came first: the override's factory runs once, and nothing keeps what it made"
    )
    func resetWhileWaited() async throws {
        /// What a thread's resolve made, held weakly once the thread has let go of it.
        final class Made: @unchecked Sendable {
            weak var store: CountedStore?
        }
        for inChild in [false, true] {
            let root = Container()
            let container = inChild ? Container(parent: root) : root
            let (entered, release) = (Gate(), Gate())
            let calls = Atomic<Int>(0)
            container.countedStore.register { _ in
                if calls.add(1, ordering: .relaxed).newValue == 1 {
                    entered.open()
                    _ = waitUntil { release.opened }
                }
                return CountedStore()
            }
            let byCreator = Made()
            let creator = OwnThread { byCreator.store = try? container.countedStore() }
            await entered.wait()
            let byWaiters = (0..<4).map { _ in Made() }
            let started = (0..<4).map { _ in Gate() }
            let waiters = (0..<4).map { index in
                OwnThread {
                    started[index].open()
                    byWaiters[index].store = try? container.countedStore()
                }
            }
            for gate in started { await gate.wait() }
            for _ in 0..<100 { await Task.yield() }  // Most often, the waiters wait by now.
            container.countedStore.reset()
            release.open()
            await creator.join()
            for waiter in waiters { await waiter.join() }
            // The override's instance: made once, by the resolve that started it, kept by nothing.
            #expect(calls.load(ordering: .relaxed) == 1, "in a child: \(inChild)")
            #expect(byCreator.store == nil, "in a child: \(inChild)")
            // Each waiter got the default's instance, which its scope keeps in the root.
            let kept = try container.countedStore()
            #expect(byWaiters.allSatisfy { $0.store === kept }, "in a child: \(inChild)")
        }
    }

    @Test(
        "Async resolves racing overrides and resets of an async declared service, and of what it implements, never need a synchronous resolve"
    )
    func asyncResolvesRacingResets() async throws {
        struct Result: Sendable {
            let declared: Bool
            let kinds: [ResolutionError.Kind]
        }
        let container = Container()
        let stop = Atomic<Bool>(false)
        let storm = OwnThread {
            while !stop.load(ordering: .relaxed) {
                container.asyncStore.register { _ async in AsyncStore() }.implements((any AsyncReading).self) { $0 }
                container.asyncStore.reset()
            }
        }
        let results = await inTasks(4) { index in
            var kinds: [ResolutionError.Kind] = []
            for _ in 0..<2_000 {
                do {
                    if index.isMultiple(of: 2) {
                        _ = try await container.asyncStore.resolveAsync()
                    } else {
                        _ = try await container.resolveAsync((any AsyncReading).self)
                    }
                } catch let error as ResolutionError {
                    kinds.append(error.kind)
                } catch {
                    Issue.record(error)
                }
            }
            return Result(declared: index.isMultiple(of: 2), kinds: kinds)
        }
        stop.store(true, ordering: .relaxed)
        await storm.join()
        // The declared service always resolves; its protocol, registered only by the override,
        // is not registered when a reset came first — and never needs a synchronous resolve.
        let declaredFailures = results.filter { $0.declared }.flatMap { $0.kinds }
        let allFailures = results.flatMap { $0.kinds }
        #expect(declaredFailures.isEmpty)
        #expect(allFailures.allSatisfy { $0 == .notRegistered })
    }
}

/// A service whose override's closure keeps a `Reentrant`, whose `deinit` resolves.
final class EndDeinitService: Sendable {}

/// Resolves `EndDeinitService` from `container` when it goes: inside the teardown of the resolve
/// that let go of it last (``endDeinitResolves()``).
final class Reentrant: Sendable {
    /// How many `deinit`s resolved.
    final class Count: Sendable {
        let value = Atomic<Int>(0)
    }
    let container: Container
    let resolved: Count
    init(_ container: Container, _ resolved: Count) {
        self.container = container
        self.resolved = resolved
    }
    deinit {
        if (try? container.endDeinitService()) != nil { resolved.value.add(1, ordering: .relaxed) }
    }
}

extension Container {
    var endDeinitService: Registered<EndDeinitService> { self { _ in EndDeinitService() }.inScope(.container) }
    var endDeinitOuter: Registered<CountedStore> {
        self { r in
            _ = try r.endDeinitService()
            // The entry lets go of the override while its instance is being made: the resolve's
            // records hold the last reference to its closure.
            self.endDeinitService.reset()
            return CountedStore()
        }.inScope(.transient)
    }
}

extension ContainerDeclaredStressTests {
    @Test(
        "A deinit that resolves, run as a resolve's teardown lets go of what it held, finds the stack whole (release builds crashed)"
    )
    func endDeinitResolves() throws {
        let resolved = Reentrant.Count()
        for _ in 0..<200 {
            let container = Container()
            do {
                let reentrant = Reentrant(container, resolved)
                container.endDeinitService.register { _ in
                    withExtendedLifetime(reentrant) {}
                    return EndDeinitService()
                }
            }
            _ = try container.endDeinitOuter()
        }
        #expect(resolved.value.load(ordering: .relaxed) == 200)
    }
}
