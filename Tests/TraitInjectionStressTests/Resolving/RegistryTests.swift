import TestFixtures
import Testing

@testable import TraitInjection

/// Direct tests of ``Registry``: its lock-free index finds every key, a replacement changes an
/// entry in place, and the indexes it builds stay bounded (the invariants in `Registry.swift`).
@Suite("Resolving: Registry")
struct RegistryTests {
    /// Keys that differ from registered ones in one part each: service type, argument types, name.
    static let unregistered = [
        ServiceKey(Double.self, name: KeyFamily.name(5), arguments: Void.self),
        ServiceKey(Int.self, name: KeyFamily.name(5), arguments: String.self),
        ServiceKey(String.self, name: KeyFamily.name(5), arguments: Int.self),
        ServiceKey(Int.self, name: "k-none", arguments: Void.self),
        ServiceKey(Service.self, name: nil, arguments: Int.self),
    ]

    @Test("10,000 keys registered before the first lookup are all found through one index, and nothing else is")
    func everyKeyThroughTheIndex() throws {
        let container = Container()
        let count = 10_000
        for index in 0..<count { KeyFamily.register(index, in: container, value: index) }
        // Unnamed keys next to named ones of the same types.
        container.register(Int.self) { _ in -1 }
        container.register(Service.self) { _ in Service(number: -2) }
        container.register(Int.self) { (_, offset: Int) in -3 + offset }
        let registry = container.registry
        // Built by the first lookup, not by registering.
        #expect(registry.indexCount == 0)
        let all = Dictionary(uniqueKeysWithValues: registry.entries.map { ($0.key, $0.entry) })
        #expect(all.count == count + 3)
        var misses = 0
        for (key, entry) in all where registry.entry(for: key) !== entry { misses += 1 }
        #expect(misses == 0)
        // A key missing from the index would have been found under the lock, which would have
        // built a second index: every key was found in the first.
        #expect(registry.indexCount == 1)
        for key in Self.unregistered { #expect(registry.entry(for: key) == nil, "\(key)") }
        #expect(registry.indexCount == 1)
        // Each entry holds its own registration.
        var wrong = 0
        for index in stride(from: 0, to: count, by: 7) where try KeyFamily.resolve(index, in: container) != index {
            wrong += 1
        }
        #expect(wrong == 0)
        #expect(try container.resolve(Int.self) == -1)
        #expect(try container.resolve(Service.self).number == -2)
        #expect(try container.resolve(Int.self, arguments: 0) == -3)
    }

    @Test("Keys registered between lookups are all found, and the indexes built meanwhile stay bounded")
    func keysBetweenLookups() throws {
        let container = Container()
        let registry = container.registry
        // The worst case for rebuilding: each new key is looked up at once.
        var missed: [Int] = []
        for index in 0..<1_000 {
            KeyFamily.register(index, in: container, value: index)
            if registry.entry(for: KeyFamily.key(index)) == nil { missed.append(index) }
        }
        let early = registry.indexCount
        #expect(early >= 1)
        #expect(early <= mostIndexes(forEntries: 1_000))
        for index in 1_000..<4_000 {
            KeyFamily.register(index, in: container, value: index)
            if registry.entry(for: KeyFamily.key(index)) == nil { missed.append(index) }
        }
        #expect(missed.isEmpty)
        // Bounded, and not frozen: with four times the entries, lookups go through an index again.
        let late = registry.indexCount
        #expect(late > early)
        #expect(late <= mostIndexes(forEntries: 4_000))
        // Every key is still found, whether the current index has it or only the lock's table.
        let all = Dictionary(uniqueKeysWithValues: registry.entries.map { ($0.key, $0.entry) })
        #expect(all.count == 4_000)
        var misses = 0
        for index in 0..<4_000 where registry.entry(for: KeyFamily.key(index)) !== all[KeyFamily.key(index)] {
            misses += 1
        }
        #expect(misses == 0)
        #expect(registry.indexCount <= mostIndexes(forEntries: 4_000))
        #expect(try KeyFamily.resolve(3_999, in: container) == 3_999)
    }

    @Test("Replacing a registration keeps its one entry, whose registration and kept instance change")
    func replacementKeepsTheEntry() throws {
        let container = Container()
        for index in 0..<100 { KeyFamily.register(index, in: container, value: index) }
        let registry = container.registry
        let key = KeyFamily.key(42)
        let entry = try #require(registry.entry(for: key))
        let indexes = registry.indexCount
        var binding = entry.read().binding
        for round in 1...100 {
            KeyFamily.register(42, in: container, value: 1_000 + round)
            // Invariant 1: the same entry, found through the same index, holds the new registration.
            #expect(registry.entry(for: key) === entry)
            let replacement = entry.read().binding
            #expect(replacement !== binding)
            binding = replacement
        }
        #expect(registry.entries.count == 100)
        #expect(registry.indexCount == indexes)
        #expect(try KeyFamily.resolve(42, in: container) == 1_100)
        #expect(try KeyFamily.resolve(41, in: container) == 41)
        #expect(try KeyFamily.resolve(43, in: container) == 43)
        // A kept instance goes with the registration that made it.
        let kept = DeinitCounter()
        container.register(Probe.self) { _ in Probe(number: 1, deinits: kept) }.inScope(.container)
        let probeEntry = try #require(container.entry(of: Probe.self))
        #expect(try container.resolve(Probe.self).number == 1)
        #expect(probeEntry.keptInstance != nil)
        container.register(Probe.self) { _ in Probe(number: 2, deinits: kept) }.inScope(.container)
        #expect(container.entry(of: Probe.self) === probeEntry)
        #expect(probeEntry.isEmpty)
        #expect(kept.count == 1)
        #expect(try container.resolve(Probe.self).number == 2)
    }

    @Test("A singleton is published while a resolve reads its entry, without waiting for that read")
    func publicationDoesNotWaitForReaders() throws {
        let container = Container()
        let captured = DeinitCounter()
        let kept = DeinitCounter()
        do {
            let probe = Probe(number: 1, deinits: captured)
            container.register(Probe.self) { _ in Probe(number: probe.number, deinits: kept) }.inScope(.container)
        }
        let entry = try #require(container.entry(of: Probe.self))
        // Another thread makes and publishes the singleton (under `Waits`' monitor) while a read
        // of the entry is in flight here: publishing lets go of nothing, so it does not wait.
        let published = entry.whileReading {
            let ended = Gate()
            _ = OwnThread {
                _ = try? container.resolve(Probe.self)
                ended.open()
            }
            // A hang guard, not a timing: the old engine waited for this read to end.
            return waitUntil { ended.opened }
        }
        #expect(published)
        let first = try container.resolve(Probe.self)
        #expect(first === (try container.resolve(Probe.self)))
        #expect(entry.keptInstance as AnyObject? === first)
        // Replacing the registration waits for readers (there are none now) and lets go of every
        // snapshot kept meanwhile, with the old registration and its instance.
        container.register(Probe.self) { _ in Probe(number: 2, deinits: kept) }.inScope(.container)
        #expect(captured.count == 1)
        #expect(try container.resolve(Probe.self).number == 2)
        withExtendedLifetime(first) {}
    }

    @Test("A dropped container lets go of every registration, kept instance and index")
    func droppedRegistryLetsGo() throws {
        let captured = DeinitCounter()
        let kept = DeinitCounter()
        weak var weakContainer: Container?
        do {
            let container = Container()
            weakContainer = container
            for index in 0..<200 {
                let probe = Probe(number: index, deinits: captured)
                container.register(Probe.self, name: "\(index)") { _ in
                    Probe(number: probe.number, deinits: kept)
                }
                .inScope(.container)
                // Looked up at once: the registry builds indexes as it grows.
                _ = try container.resolve(Probe.self, name: "\(index)")
            }
            #expect(container.registry.indexCount > 1)
            #expect(captured.count == 0)
            #expect(kept.count == 0)
        }
        #expect(weakContainer == nil)
        #expect(captured.count == 200)
        #expect(kept.count == 200)
    }
}
