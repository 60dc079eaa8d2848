import Dispatch
import Observation
import Synchronization
import TestFixtures
import Testing
import TraitInjection

/// An `@Observable` class with two typed traits, set from several threads.
@Observable
final class ObservedKennel: Injected, @unchecked Sendable {
    // `@unchecked Sendable`: its one stored property is never replaced (the library never replaces
    // the identifier of an object that has read a trait through a typed key), and its traits are
    // safe to set from any thread.
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()

    var toy: String {
        get { self[trait: ToyTrait.self] }
        set { self[trait: ToyTrait.self] = newValue }
    }

    var snack: String {
        get { self[trait: SnackTrait.self] }
        set { self[trait: SnackTrait.self] = newValue }
    }
}

/// An `@Observable` class per `Tag`, with a string-named trait read through the object forms.
@Observable
final class ObservedTag<Tag>: Injected {
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()

    var label: String {
        get { Injectable.get(traitName: "label", forObject: self, orDefaultTo: "") }
        set { Injectable.set(traitName: "label", forObject: self, to: newValue) }
    }
}

/// A class per `Tag` that is not `Observable`, with the same trait.
final class PlainTag<Tag>: Injected {
    var injectableIdentifier = InjectableIdentifier()

    var label: String {
        get { Injectable.get(traitName: "label", forObject: self, orDefaultTo: "") }
        set { Injectable.set(traitName: "label", forObject: self, to: newValue) }
    }
}

/// Over `depth` classes of each kind (`Tag`, `[Tag]`, …), the number of fresh objects whose set
/// of a trait read first fired their tracking, observed and plain.
func firstReadFirings<Tag>(_: Tag.Type, depth: Int) -> (observed: Int, plain: Int) {
    guard depth > 0 else { return (0, 0) }
    func fired(_ read: () -> Void, _ set: () -> Void) -> Int {
        let count = DeinitCounter()
        withObservationTracking(read) { count.increment() }
        set()
        return count.count
    }
    let observed = ObservedTag<Tag>()
    let plain = PlainTag<Tag>()
    let here = (
        fired({ _ = observed.label }, { observed.label = "a" }),
        fired({ _ = plain.label }, { plain.label = "a" })
    )
    let deeper = firstReadFirings([Tag].self, depth: depth - 1)
    return (here.0 + deeper.observed, here.1 + deeper.plain)
}

extension TraitStoreStress {
    @Suite("Traits: observed objects set from several threads")
    struct TraitObservationStressTests {
        /// Tracks `toy` and `snack` of the kennel `kennelIndex(thread, round)` names, sets its
        /// `toy`, on `threads` threads for `rounds` rounds each; returns the firings of each `toy`
        /// tracking and of all the `snack` ones, which nobody sets.
        func trackAndSet(
            _ kennels: [ObservedKennel],
            threads: Int,
            rounds: Int,
            kennelIndex: @Sendable (Int, Int) -> Int
        ) -> (toy: [Int], snack: Int) {
            let toyFirings = (0..<threads * rounds).map { _ in DeinitCounter() }
            let snackFirings = DeinitCounter()
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for round in 0..<rounds {
                    let kennel = kennels[kennelIndex(thread, round)]
                    let count = toyFirings[thread * rounds + round]
                    withObservationTracking {
                        _ = kennel.toy
                    } onChange: {
                        count.increment()
                    }
                    withObservationTracking {
                        _ = kennel.snack
                    } onChange: {
                        snackFirings.increment()
                    }
                    kennel.toy = "\(thread)-\(round)"
                    _ = kennel.snack
                }
            }
            return (toyFirings.map(\.count), snackFirings.count)
        }

        @Test("Stress: objects set on their own threads at once fire each tracking exactly once")
        func setsOnOwnThreadsFireOnce() {
            let threads = 4
            let kennels = (0..<threads).map { _ in ObservedKennel() }
            let (toy, snack) = trackAndSet(kennels, threads: threads, rounds: 1_000) { thread, _ in thread }
            #expect(toy.allSatisfy { $0 == 1 }, "firings per tracking: \(Set(toy))")
            #expect(snack == 0)
            for (thread, kennel) in kennels.enumerated() {
                #expect(kennel.toy == "\(thread)-999")
                #expect(kennel.snack == "biscuit")
            }
        }

        @Test("Stress: first reads of many classes at once on several threads tell each class's observability right")
        func firstReadsOfManyClassesAtOnce() {
            // 100 classes of each kind, more than the table has cells, first seen on 4 threads
            // at once, the odd threads one class ahead: shared cells are written as they are read.
            // Counted in atomics: ThreadSanitizer does not see a Mutex's futex as synchronisation,
            // and reported the appends to a shared array under one as a race.
            let rounds = Atomic<Int>(0)
            let right = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for _ in 0..<20 {
                    let result =
                        thread.isMultiple(of: 2)
                        ? firstReadFirings(Int.self, depth: 100) : firstReadFirings([Int].self, depth: 100)
                    rounds.add(1, ordering: .relaxed)
                    if result.observed == 100, result.plain == 0 { right.add(1, ordering: .relaxed) }
                }
            }
            #expect(rounds.load(ordering: .relaxed) == 80)
            #expect(right.load(ordering: .relaxed) == 80)
        }

        @Test("Stress: string-named sets of an object race typed sets and reads, and lose nothing")
        func stringNamedSetsRaceTypedAccess() {
            let kennel = ObservedKennel()
            let identifier = kennel.injectableIdentifier
            _ = kennel.toy  // known as observable from here
            let nicknameFirings = DeinitCounter()
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for round in 0..<1_000 {
                    switch thread {
                    case 0:
                        Injectable.set(traitName: "nickname", forObject: kennel.injectableIdentifier, to: "\(round)")
                    case 1:
                        Injectable.set(traitName: "title", forObject: kennel.injectableIdentifier, to: "\(round)")
                        _ = kennel.toy
                    case 2:
                        kennel.toy = "\(round)"
                    default:
                        withObservationTracking {
                            let _: String? = Injectable.get(traitName: "nickname", for: kennel.injectableIdentifier)
                        } onChange: {
                            nicknameFirings.increment()
                        }
                        _ = kennel.snack
                    }
                }
            }
            #expect(kennel.injectableIdentifier === identifier)
            let nickname: String? = Injectable.get(traitName: "nickname", for: kennel.injectableIdentifier)
            let title: String? = Injectable.get(traitName: "title", for: kennel.injectableIdentifier)
            #expect(nickname == "999" && title == "999" && kennel.toy == "999")
            // However the threads interleaved, no tracking was lost: after one more tracking and
            // one more set, each of the 1,001 trackings has fired.
            withObservationTracking {
                let _: String? = Injectable.get(traitName: "nickname", for: kennel.injectableIdentifier)
            } onChange: {
                nicknameFirings.increment()
            }
            Injectable.set(traitName: "nickname", forObject: kennel.injectableIdentifier, to: "last")
            #expect(nicknameFirings.count >= 1_001)
        }

        // Each set fires the trackings registered when it starts, once. A tracking ends after its
        // first firing, but sets racing on other threads may each fire it before it has ended: so
        // does a stored property of an `@Observable` class (Observation's `withObservationTracking`
        // on Linux, Swift 6.3.1).
        @Test("Stress: one object set from several threads at once never loses a firing")
        func setsOnSharedObjectsNeverLoseAFiring() {
            let kennels = (0..<2).map { _ in ObservedKennel() }
            let (toy, snack) = trackAndSet(kennels, threads: 4, rounds: 1_000) { thread, round in
                (thread + round) % 2
            }
            #expect(toy.allSatisfy { $0 >= 1 }, "firings per tracking: \(Set(toy))")
            #expect(snack == 0)
            for kennel in kennels {
                #expect(kennel.toy.contains("-"))
                #expect(kennel.snack == "biscuit")
            }
        }
    }
}
