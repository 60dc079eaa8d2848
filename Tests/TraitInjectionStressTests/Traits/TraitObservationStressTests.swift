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
