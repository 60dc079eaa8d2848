import TestFixtures
import Testing

@testable import TraitInjection

enum TrackedTrait: TraitKey {
    static var defaultValue: Tracked? { nil }
}

struct Holder: Injected {
    var injectableIdentifier = InjectableIdentifier()

    var tracked: Tracked? {
        get { self[trait: TrackedTrait.self] }
        set { self[trait: TrackedTrait.self] = newValue }
    }
}

extension TraitTests {
    @Suite("Release of a dead instance's values")
    struct TraitLifetimeTests {
        @Test("A dead instance's values are released at once and the count drops")
        func deadInstanceIsPruned() {
            let counter = DeinitCounter()
            let before = Injectable.storedTraitCount
            do {
                var holder = Holder()
                holder.tracked = Tracked(counter)
                _ = holder.tracked
                #expect(Injectable.storedTraitCount == before + 1)
                #expect(TraitStore.count(for: holder.injectableIdentifier) == 1)
                #expect(counter.count == 0)
            }
            #expect(counter.count == 1)
            #expect(Injectable.storedTraitCount == before)
        }

        @Test("A replaced trait value is deinitialised")
        func replacedValueIsReleased() {
            let counter = DeinitCounter()
            var holder = Holder()
            holder.tracked = Tracked(counter)
            holder.tracked = Tracked(counter)
            #expect(counter.count == 1)
            holder.tracked = nil
            #expect(counter.count == 2)
        }

        @Test("Values shared by struct copies live until the last copy goes")
        func sharedValuesLiveWithTheLastCopy() {
            let counter = DeinitCounter()
            var copy: Holder?
            do {
                var original = Holder()
                original.tracked = Tracked(counter)
                copy = original
            }
            #expect(counter.count == 0)
            #expect(copy?.tracked != nil)
            copy = nil
            #expect(counter.count == 1)
        }

        @Test("After copy-on-write, each copy releases its own values")
        func copiesReleaseIndependently() {
            let counter = DeinitCounter()
            var joe = Holder()
            joe.tracked = Tracked(counter)
            var bob: Holder? = joe
            bob!.tracked = Tracked(counter)
            #expect(counter.count == 0)
            bob = nil
            #expect(counter.count == 1)
            joe.tracked = nil
            #expect(counter.count == 2)
        }

        @Test("A trait value that is itself injected can be released from inside the store's work")
        func nestedInjectedValues() {
            let counter = DeinitCounter()
            let before = Injectable.storedTraitCount
            do {
                var outer = Owner()
                var inner = Holder()
                inner.tracked = Tracked(counter)
                Injectable.set(traitName: "inner", for: &outer.injectableIdentifier, to: inner)
                inner = Holder()
                // Replacing the stored Holder releases the last reference to its identifier, whose
                // deinit goes back to the store: this must not deadlock.
                Injectable.set(traitName: "inner", for: &outer.injectableIdentifier, to: inner)
                #expect(counter.count == 1)
            }
            #expect(Injectable.storedTraitCount == before)
        }

        @Test("Creating and dropping many instances with two traits leaves the count where it was")
        func manyInstances() {
            let before = Injectable.storedTraitCount
            var owners = (0..<50_000).map { _ in Owner() }
            for index in owners.indices {
                owners[index].pet.name = "Pet \(index)"
                owners[index].toy = "toy \(index)"
            }
            #expect(Injectable.storedTraitCount == before + 100_000)
            #expect(owners[49_999].pet.name == "Pet 49999")
            owners.removeAll()
            #expect(Injectable.storedTraitCount == before)
        }

        @Test("pruneInjectedValues keeps live values")
        func explicitPrune() {
            var owner = Owner()
            owner.pet.name = "Coco"
            Injectable.pruneInjectedValues()
            #expect(owner.pet.name == "Coco")
        }
    }
}
