import Dispatch
import TestFixtures
import Testing
import TraitInjection

/// A trait value whose `deinit` runs `action`: released under one of the store's locks, an action
/// that uses the store deadlocks.
final class ReentrantValue: Sendable {
    let action: @Sendable () -> Void

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    deinit { action() }
}

/// A trait holding a ``ReentrantValue``.
enum ReentrantTrait: TraitKey {
    static var defaultValue: ReentrantValue? { nil }
}

/// Runs `body` on a thread of its own and reports a deadlock if it has not returned in 30 s, so
/// that a regression fails the test instead of hanging the run.
func runWithoutDeadlock(_ site: String, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    if done.wait(timeout: .now() + 30) == .timedOut {
        Issue.record("deadlock: \(site) released a value under a lock that its deinit takes")
    }
}

extension TraitStoreStress {
    @Suite("Traits: values the store lets go may use it from their deinit")
    struct TraitReentrancyTests {
        /// What a released value does: reads and writes traits of `kennel` (the instance that held
        /// the value) and of another instance, and reads the store's count.
        static func useStore(
            _ kennel: ThreadedKennel?,
            _ other: ThreadedKennel,
            _ log: Counter
        ) -> @Sendable () -> Void {
            { [weak kennel] in
                _ = kennel?[trait: ToyTrait.self]
                kennel?.setTrait(SnackTrait.self, to: "from deinit")
                other.setTrait(ToyTrait.self, to: "\(other[trait: ToyTrait.self])!")
                _ = Injectable.storedTraitCount
                log.increment()
            }
        }

        @Test("A value replaced by a set, or forgotten by resetTrait", .timeLimit(.minutes(10)))
        func replacedAndReset() {
            let kennel = ThreadedKennel()
            let other = ThreadedKennel()
            let log = Counter()
            runWithoutDeadlock("a set") {
                kennel.setTrait(ReentrantTrait.self, to: ReentrantValue(Self.useStore(kennel, other, log)))
                kennel.setTrait(ReentrantTrait.self, to: nil)
            }
            #expect(log.count == 1)
            #expect(kennel[trait: SnackTrait.self] == "from deinit")
            runWithoutDeadlock("resetTrait") {
                kennel.setTrait(ReentrantTrait.self, to: ReentrantValue(Self.useStore(kennel, other, log)))
                kennel.resetTrait(ReentrantTrait.self)
            }
            #expect(log.count == 2)
            #expect(other[trait: ToyTrait.self] == "ball!!")
        }

        @Test("The values of an instance that dies", .timeLimit(.minutes(10)))
        func instanceDies() {
            let other = ThreadedKennel()
            let log = Counter()
            runWithoutDeadlock("an instance's deinit") {
                let kennel = ThreadedKennel()
                kennel.setTrait(ReentrantTrait.self, to: ReentrantValue(Self.useStore(nil, other, log)))
                kennel.setTrait(ToyTrait.self, to: "rope")
                // The last reference goes at the end of this closure.
            }
            #expect(log.count == 1)
            runWithoutDeadlock("pruneInjectedValues") { Injectable.pruneInjectedValues() }
            #expect(other[trait: ToyTrait.self] == "ball!")
        }

        @Test("An injector default's replaced value, and an override's value when it ends", .timeLimit(.minutes(10)))
        func injectorDefault() {
            let injected = InjectorDefault<ReentrantValue?>(nil)
            let log = Counter()
            // The deinit reads the default and sets it again.
            let reenter: @Sendable () -> Void = {
                _ = injected.value
                injected.value = nil
                log.increment()
            }
            runWithoutDeadlock("InjectorDefault.value's setter") {
                injected.value = ReentrantValue(reenter)
                injected.value = nil
            }
            #expect(log.count == 1)
            runWithoutDeadlock("the end of withValue") {
                injected.withValue(ReentrantValue(reenter)) { _ = injected.value }
            }
            #expect(log.count == 2)
        }
    }
}
