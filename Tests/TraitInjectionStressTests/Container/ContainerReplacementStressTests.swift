import Dispatch
import Synchronization
import TestFixtures
import Testing

@testable import TraitInjection

/// Counts its live instances.
final class LiveCounted: Sendable {
    static let live = Atomic<Int>(0)

    init() { Self.live.add(1, ordering: .relaxed) }
    deinit { Self.live.subtract(1, ordering: .relaxed) }
}

@Suite("Container: replaced registrations are freed", .serialized)
struct ContainerReplacementStressTests {
    @Test("20,000 replacements keep memory flat: each superseded factory's captured values are freed")
    func replacementsAreFreed() throws {
        let container = Container()
        let start = LiveCounted.live.load(ordering: .relaxed)
        for round in 0..<20_000 {
            let captured = LiveCounted()
            container.register(Int.self) { _ in
                _ = captured
                return round
            }
            .inScope(.container)
            #expect(try container.resolve(Int.self) == round)
        }
        // Only the current registration's captured value remains once no resolve that was running
        // at a replacement still runs. Other tests resolve in parallel: the end of theirs
        // releases what they delayed, with no further register here.
        #expect(waitUntil { LiveCounted.live.load(ordering: .relaxed) - start == 1 })
        #expect(waitUntil { container.retiredSnapshotCount == 0 })
        if container.retiredSnapshotCount != 0 {
            let report = container.registry.withLock { registry in
                registry.retired.map { entry in
                    entry.readers.map { reader in
                        "\(reader.count)/\(reader.context.activationCount.load(ordering: .relaxed)) mark \(reader.context.mustReclaim.load(ordering: .relaxed))"
                    }.joined(separator: ", ") + " (\(entry.snapshots.count) snapshots)"
                }
            }
            // What still holds them, for whoever reads the log: each reader's recorded and current
            // activation (equal: still running) and its mark.
            print(
                "Retired snapshots left: listed=\(container.registry.withLock(\.isListed)) empty=\(PendingSnapshots.isEmpty) entries:\n"
                    + report.joined(separator: "\n"))
        }
    }

    @Test("Stress: a registration replaced while another thread resolves it lives until that resolve ends")
    func replacedDuringResolve() throws {
        let container = Container()
        let start = LiveCounted.live.load(ordering: .relaxed)
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        do {
            let captured = LiveCounted()
            container.register(Service.self) { _ in
                entered.signal()
                proceed.wait()
                return Service(number: captured === captured ? 1 : 0)
            }
        }
        let group = DispatchGroup()
        let result = Mutex<Int?>(nil)
        DispatchQueue.global().async(group: group) {
            let number = try? container.resolve(Service.self).number
            result.withLock { $0 = number }
        }
        entered.wait()
        container.register(Service.self) { _ in Service(number: 2) }
        // The first factory still runs: what it captured is alive.
        #expect(LiveCounted.live.load(ordering: .relaxed) - start == 1)
        proceed.signal()
        group.wait()
        #expect(result.withLock { $0 } == 1)
        #expect(try container.resolve(Service.self).number == 2)
        // The end of that resolve released the old snapshot, with no further register (or, if
        // other tests' resolves were running at the replacement too, the end of the last of them).
        #expect(waitUntil { LiveCounted.live.load(ordering: .relaxed) - start == 0 })
    }

    @Test("Stress: registering while other threads resolve frees superseded snapshots without a race")
    func registerWhileResolvingStress() async throws {
        let container = Container()
        container.register(Int.self) { _ in 0 }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for round in 0..<2_000 {
                        if task == 0 {
                            container.register(Int.self) { _ in round }
                        } else {
                            _ = try? container.resolve(Int.self)
                        }
                    }
                }
            }
        }
        container.register(Int.self) { _ in -1 }
        #expect(try container.resolve(Int.self) == -1)
    }
}
