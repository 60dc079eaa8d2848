import Dispatch
import Synchronization
import TestFixtures
import Testing
import TraitInjection

/// A trait whose values count their own release.
enum TrackedStressTrait: TraitKey {
    static var defaultValue: Tracked? { nil }
}

/// A value type carrying a counted value, a string and, on some copies, a third trait.
struct TrackedOwner: Injected {
    var injectableIdentifier = InjectableIdentifier()

    var tracked: Tracked? {
        get { self[trait: TrackedStressTrait.self] }
        set { self[trait: TrackedStressTrait.self] = newValue }
    }

    var toy: String {
        get { self[trait: ToyTrait.self] }
        set { self[trait: ToyTrait.self] = newValue }
    }
}

extension TraitStoreStress {
    @Suite("Trait store: a million instances on two threads")
    struct TraitStoreMillionTests {
        static let instances = 1_000_000
        static let threads = 2

        @Test(
            "A million instances with traits, made and dropped on two threads, leave the store as it was and free every value"
        )
        func millionOnTwoThreads() async {
            let before = Injectable.storedTraitCount
            let released = DeinitCounter()
            let perThread = Self.instances / Self.threads
            let peaks = Atomic<Int>(0)
            // Threads of their own, not Dispatch's: on Linux those are the cooperative pool's.
            let problems = Mutex<[String]>([])
            await onOwnThreads(Self.threads) { thread in
                // Every instance stays alive until its thread has made all of its own, so the store
                // holds up to a million at once; every tenth is copied and the copy written
                // (copy-on-write), and every fourth has its first read replaced by a set.
                var owners: [TrackedOwner] = []
                owners.reserveCapacity(perThread + perThread / 10)
                for index in 0..<perThread {
                    var owner = TrackedOwner()
                    if index.isMultiple(of: 4) {
                        owner.toy = "toy \(thread)"
                    } else if owner.toy != ToyTrait.defaultValue {
                        problems.withLock { $0.append("a fresh instance read a stored toy") }
                    }
                    owner.tracked = Tracked(released)
                    if index.isMultiple(of: 10) {
                        var copy = owner
                        copy.toy = "copy"
                        if owner.toy == "copy" {
                            problems.withLock { $0.append("a copy's write reached its original") }
                        }
                        owners.append(copy)
                    }
                    owners.append(owner)
                }
                peaks.add(Injectable.storedTraitCount - before, ordering: .relaxed)
                owners.removeAll()
            }
            #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { $0.prefix(3) })")
            #expect(Injectable.storedTraitCount == before)
            #expect(released.count == Self.instances)
            // Each thread saw at least its own instances' two traits each, and its copies'.
            #expect(peaks.load(ordering: .relaxed) >= Self.instances * 2 + Self.instances / 10 * 2)
        }
    }
}
