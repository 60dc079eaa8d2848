import Synchronization
import TestFixtures
import Testing

@testable import TraitInjection

/// Direct tests of ``Locked``, the library's one lock type.
@Suite("Support: Locked")
struct LockedTests {
    /// State whose two halves must always agree: a critical section that another one overlapped
    /// would leave them apart.
    struct Pair {
        var first = 0
        var second = 0
    }

    struct Refused: Error, Equatable {
        let value: Int
    }

    @Test("Stress: threads contending for the lock each get it alone, and lose no update", arguments: [false, true])
    func exclusiveUnderContention(padded: Bool) async {
        let locked = Locked(Pair(), padded: padded)
        // Set by a thread inside the lock: another thread finding it set is inside too.
        let inside = Atomic<Bool>(false)
        let overlaps = Atomic<Int>(0)
        let threads = 4
        let rounds = 20_000
        await onOwnThreads(threads) { _ in
            for _ in 0..<rounds {
                locked.withLock { pair in
                    if inside.exchange(true, ordering: .acquiringAndReleasing) { overlaps.add(1, ordering: .relaxed) }
                    pair.first += 1
                    if pair.first != pair.second + 1 { overlaps.add(1, ordering: .relaxed) }
                    pair.second += 1
                    inside.store(false, ordering: .releasing)
                }
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        let pair = locked.withLock { $0 }
        #expect(pair.first == threads * rounds)
        #expect(pair.second == threads * rounds)
    }

    @Test("A critical section sees and keeps the state, and returns its result")
    func returnsItsResult() {
        let locked = Locked([Int]())
        let count = locked.withLock { state -> Int in
            state.append(1)
            state.append(2)
            return state.count
        }
        #expect(count == 2)
        #expect(locked.withLock { $0 } == [1, 2])
        // A copy of the struct is the same lock and state.
        let copy = locked
        copy.withLock { $0.append(3) }
        #expect(locked.withLock { $0 } == [1, 2, 3])
    }

    @Test("An error thrown in a critical section reaches the caller typed, with the lock let go and the state kept")
    func throwingReleasesTheLock() {
        let locked = Locked(0, padded: true)
        let error = #expect(throws: Refused.self) {
            try locked.withLock { (state: inout Int) throws(Refused) -> Void in
                state = 5
                throw Refused(value: state)
            }
        }
        #expect(error == Refused(value: 5))
        // Not left locked: this would hang.
        #expect(locked.withLock { $0 } == 5)
    }

    @Test("The state goes when the last copy of the lock does", arguments: [false, true])
    func stateReleasedWhenDropped(padded: Bool) {
        let deinits = DeinitCounter()
        weak var weakState: Probe?
        do {
            let locked = Locked([Probe(number: 1, deinits: deinits)], padded: padded)
            let copy = locked
            locked.withLock { weakState = $0.first }
            #expect(weakState != nil)
            withExtendedLifetime(copy) { #expect(deinits.count == 0) }
        }
        #expect(weakState == nil)
        #expect(deinits.count == 1)
        // Replaced state goes at once, too.
        let locked = Locked(Probe(number: 2, deinits: deinits))
        locked.withLock { $0 = Probe(number: 3, deinits: deinits) }
        #expect(deinits.count == 2)
        #expect(locked.withLock { $0.number } == 3)
    }
}
