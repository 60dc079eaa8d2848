import Synchronization
import TestFixtures
import Testing

@testable import TraitInjection

/// ``Registry`` under concurrency and churn: lookups without a lock racing with registrations,
/// and replacements that must not pile up.
@Suite("Resolving: Registry under concurrency and churn", .timeLimit(.minutes(10)))
struct RegistryStressTests {
    /// An instance kept by the `.container` scope, made in round `round` of a test.
    final class Made: Sendable {
        let round: Int
        let deinits: DeinitCounter

        init(round: Int, deinits: DeinitCounter) {
            self.round = round
            self.deinits = deinits
        }

        deinit { deinits.increment() }
    }

    @Test("Stress: threads looking up while another registers never miss a key registered before")
    func lookupsWhileRegistering() async throws {
        let container = Container()
        let registry = container.registry
        let total = 3_000
        // How many keys are registered; a key below it must be found.
        let registered = Atomic<Int>(0)
        let misses = Atomic<Int>(0)
        let lookups = Atomic<Int>(0)
        await onOwnThreads(3) { thread in
            guard thread > 0 else {
                for index in 0..<total {
                    KeyFamily.register(index, in: container, value: index)
                    registered.store(index + 1, ordering: .releasing)
                    // Replacements now and then: they change entries, not the indexes.
                    if index.isMultiple(of: 10) { KeyFamily.register(index / 2, in: container, value: index / 2) }
                }
                return
            }
            var step = 0
            while true {
                let count = registered.load(ordering: .acquiring)
                guard count > 0 else { continue }
                // The newest key (the one most likely missing from the index), and an older one.
                step += 1
                for index in [count - 1, (step * 7_919 + thread) % count] {
                    let found = registry.entry(for: KeyFamily.key(index))
                    if found?.read().binding == nil { misses.add(1, ordering: .relaxed) }
                }
                lookups.add(2, ordering: .relaxed)
                if count == total { break }
            }
        }
        #expect(misses.load(ordering: .relaxed) == 0)
        #expect(lookups.load(ordering: .relaxed) >= 4)
        // Every key, after the race, through the public API too.
        var wrong = 0
        for index in 0..<total where try KeyFamily.resolve(index, in: container) != index { wrong += 1 }
        #expect(wrong == 0)
        #expect(registry.entries.count == total)
        #expect(registry.indexCount <= mostIndexes(forEntries: total))
    }

    @Test("20,000 replacements of one registration keep memory flat: one entry, one index, one of everything alive")
    func replacementsKeepMemoryFlat() async throws {
        let container = Container()
        let captured = DeinitCounter()
        let kept = DeinitCounter()
        let rounds = 20_000
        // Rounds in which the replaced registration, or the instance it kept, outlived the replacement.
        var late = 0
        for round in 0..<rounds {
            // A second or more of work: let the cooperative pool's other jobs in now and then.
            if round.isMultiple(of: 500) { await Task.yield() }
            let probe = Probe(number: round, deinits: captured)
            container.register(Made.self) { _ in Made(round: probe.number, deinits: kept) }.inScope(.container)
            if captured.count != round || kept.count != round { late += 1 }
            let made = try container.resolve(Made.self)
            if made.round != round { late += 1 }
        }
        #expect(late == 0)
        #expect(captured.count == rounds - 1)
        #expect(kept.count == rounds - 1)
        #expect(container.registry.entries.count == 1)
        #expect(container.registry.indexCount == 1)
        #expect(try container.resolve(Made.self).round == rounds - 1)
    }
}
