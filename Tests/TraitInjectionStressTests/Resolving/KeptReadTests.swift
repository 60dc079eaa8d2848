import Synchronization
import TestFixtures
import Testing

@testable import TraitInjection

/// A kept instance is taken out of its box while the read of the entry is counted, without
/// retaining the box (invariant 5 of ``RegistryEntry``): reads race every kind of writer, and every
/// kind of service comes back whole through every way in.
@Suite("Resolving: kept reads", .timeLimit(.minutes(10)))
struct KeptReadTests {
    final class Made: Sendable {
        let round: Int
        let payload: [Int]
        let deinits: DeinitCounter

        init(round: Int, deinits: DeinitCounter) {
            self.round = round
            payload = [round, round &+ 1, round &+ 2]
            self.deinits = deinits
        }

        deinit { deinits.increment() }
    }

    final class Holder: Sendable {
        let made: Made
        init(_ made: Made) { self.made = made }
    }

    @Test("Stress: kept reads get whole instances while a writer replaces, resets and publishes")
    func keptReadsRaceWriters() async throws {
        let container = Container()
        let child = Container(parent: container)
        let deinits = DeinitCounter()
        let round = Atomic<Int>(0)
        container.register(Made.self) { _ in Made(round: round.load(ordering: .relaxed), deinits: deinits) }
            .inScope(.container)
        child.register(Holder.self) { r in Holder(try r.resolve(Made.self)) }
        let stop = Atomic<Bool>(false)
        let broken = Atomic<Int>(0)
        await onOwnThreads(3) { thread in
            guard thread == 0 else {
                // Through the container's first look, a child's look into its parent, and a
                // factory's resolve.
                while !stop.load(ordering: .acquiring) {
                    for path in 0..<3 {
                        let made: Made? =
                            switch path {
                            case 0: try? container.resolve(Made.self)
                            case 1: try? child.resolve(Made.self)
                            default: try? child.resolve(Holder.self).made
                            }
                        guard let made, made.payload == [made.round, made.round &+ 1, made.round &+ 2] else {
                            broken.add(1, ordering: .relaxed)
                            continue
                        }
                    }
                }
                return
            }
            for step in 1...2_000 {
                round.store(step, ordering: .relaxed)
                switch step % 4 {
                case 0:
                    container.register(Made.self) { _ in
                        Made(round: round.load(ordering: .relaxed), deinits: deinits)
                    }
                    .inScope(.container)
                case 1: container.resetScopedInstance(of: Made.self)
                case 2: container.resetScopedInstances()
                default: container.reinitialize()
                }
                _ = try? container.resolve(Made.self)  // Publishes, often while a read is in flight.
            }
            stop.store(true, ordering: .releasing)
        }
        #expect(broken.load(ordering: .relaxed) == 0)
    }

    struct Pair: Sendable {
        let nothing: Int?
        let existential: any Sendable
        let array: [Int]?
    }

    @Test("Kept optionals, existentials and values come back whole, synchronously, nested and async")
    func keptShapesThroughEveryPath() async throws {
        let container = Container()
        container.register(Int?.self) { _ in nil }.inScope(.container)
        container.register((any Sendable).self) { _ in 42 as any Sendable }.inScope(.container)
        container.register([Int]?.self) { _ in [7] }.inScope(.container)
        container.register(Pair.self) { r async throws in
            Pair(
                nothing: try await r.resolve(Int?.self), existential: try await r.resolve((any Sendable).self),
                array: try await r.resolve([Int]?.self))
        }
        // Made and kept by synchronous resolves, then read back through each way in.
        #expect(try container.resolve(Int?.self) == nil)
        #expect(try container.resolve((any Sendable).self) as? Int == 42)
        #expect(try container.resolve([Int]?.self) == [7])
        let pair = try await container.resolveAsync(Pair.self)
        #expect(pair.nothing == nil)
        #expect(pair.existential as? Int == 42)
        #expect(pair.array == [7])
        #expect(try await container.resolveAsync(Int?.self) == nil)
        #expect(try await container.resolveAsync([Int]?.self) == [7])
    }
}
