import TestFixtures
import Testing

@testable import TraitInjection

extension TraitTests {
    @Suite("Injectable: the string-named API")
    struct InjectableTests {
        @Test("The first read stores the default; later default changes leave the instance alone")
        func storedOnFirstRead() {
            let owner = Owner()
            TestPetInjector.pet.withValue(Pet(name: "Rex", species: "Dog")) {
                #expect(owner.pet.name == "Rex")
            }
            // The default is back to Rover, but this owner already stored Rex.
            #expect(owner.pet.name == "Rex")
            #expect(Owner().pet == .rover)
        }

        @Test("get(traitName:for:) returns nil for a trait never stored")
        func getWithoutDefault() {
            let owner = Owner()
            let pet: Pet? = Injectable.get(traitName: "pet", for: owner.injectableIdentifier)
            #expect(pet == nil)
            _ = owner.pet
            let stored: Pet? = Injectable.get(traitName: "pet", for: owner.injectableIdentifier)
            #expect(stored == .rover)
        }

        @Test("A struct held in a let stores its default and keeps it")
        func letStruct() {
            let owner = Owner()
            let identifier = owner.injectableIdentifier
            #expect(owner.pet == .rover)
            #expect(TraitStore.count(for: identifier) == 1)
            #expect(owner.pet == .rover)
        }

        @Test("Copies diverge on write and keep every other trait")
        func copyOnWriteIsLossless() {
            var joe = Owner()
            joe.nickname = "Joey"
            joe.toy = "rope"
            joe.pet.name = "Coco"
            var bob = joe
            #expect(bob.injectableIdentifier === joe.injectableIdentifier)

            bob.pet.name = "Bubba"

            #expect(bob.injectableIdentifier !== joe.injectableIdentifier)
            #expect(joe.pet.name == "Coco")
            #expect(bob.pet.name == "Bubba")
            // No trait fell back to its default on the copy.
            #expect(bob.nickname == "Joey")
            #expect(bob.toy == "rope")
            // And later writes stay apart, in both directions.
            joe.toy = "frisbee"
            bob.nickname = "Bobby"
            #expect(bob.toy == "rope")
            #expect(joe.nickname == "Joey")
        }

        @Test("A unique instance writes in place, keeping its identifier")
        func uniqueWriteKeepsIdentifier() {
            var owner = Owner()
            // Holding the identifier itself would make it shared; remember its address instead.
            let before = ObjectIdentifier(owner.injectableIdentifier)
            owner.pet.name = "Coco"
            owner.pet.name = "Bubba"
            #expect(ObjectIdentifier(owner.injectableIdentifier) == before)
            #expect(owner.pet.name == "Bubba")
        }

        @Test("The same name with two value types is two traits")
        func sameNameTwoTypes() {
            var owner = Owner()
            Injectable.set(traitName: "age", for: &owner.injectableIdentifier, to: 3)
            Injectable.set(traitName: "age", for: &owner.injectableIdentifier, to: "three")
            let number: Int? = Injectable.get(traitName: "age", for: owner.injectableIdentifier)
            let text: String? = Injectable.get(traitName: "age", for: owner.injectableIdentifier)
            #expect(number == 3)
            #expect(text == "three")
            // A defaulted read of one type never overwrites the other (the seed's did).
            let double = Injectable.get(traitName: "age", for: owner.injectableIdentifier, orDefaultTo: 3.5)
            #expect(double == 3.5)
            let numberAgain: Int? = Injectable.get(traitName: "age", for: owner.injectableIdentifier)
            #expect(numberAgain == 3)
            #expect(TraitStore.count(for: owner.injectableIdentifier) == 3)
        }

        @Test("Two instances never see each other's traits")
        func instancesAreSeparate() {
            var first = Owner()
            var second = Owner()
            first.pet.name = "One"
            second.pet.name = "Two"
            #expect(first.pet.name == "One")
            #expect(second.pet.name == "Two")
        }

        @Test("A new identifier at a freed identifier's address sees none of its traits")
        func addressReuse() {
            var reusedAddressSeen = false
            for _ in 0..<1000 {
                var dead: Owner? = Owner()
                dead!.pet.name = "Ghost"
                let deadAddress = ObjectIdentifier(dead!.injectableIdentifier)
                dead = nil
                let fresh = Owner()
                if ObjectIdentifier(fresh.injectableIdentifier) == deadAddress {
                    reusedAddressSeen = true
                }
                let pet: Pet? = Injectable.get(traitName: "pet", for: fresh.injectableIdentifier)
                #expect(pet == nil)
                #expect(fresh.pet == .rover)
            }
            // The allocator does reuse addresses, so the check above really met the case (but for
            // AddressSanitizer's, which keeps freed memory aside to catch uses after free).
            if !isAddressSanitized { #expect(reusedAddressSeen) }
        }

        @Test("An identifier's description is its own: stable, and never shown by another, even at a reused address")
        func descriptionsAreNeverReused() {
            var seen: Set<String> = []
            for _ in 0..<1000 {
                let identifier = InjectableIdentifier()
                let description = identifier.description
                #expect(identifier.description == description)
                #expect(seen.insert(description).inserted, "\(description) shown twice")
            }
        }

        @Test("An optional trait written with set reads back with get, and nil clears it")
        func optionalTrait() {
            var owner = Owner()
            #expect(owner.nickname == nil)
            owner.nickname = "Joey"
            #expect(owner.nickname == "Joey")
            let plain: String? = Injectable.get(traitName: "nickname", for: owner.injectableIdentifier)
            #expect(plain == "Joey")
            owner.nickname = nil
            #expect(owner.nickname == nil)
            #expect(TraitStore.count(for: owner.injectableIdentifier) == 0)
        }

        @Test("Clearing an optional trait on a copy leaves the original's value")
        func optionalClearIsCopyOnWrite() {
            var joe = Owner()
            joe.nickname = "Joey"
            var bob = joe
            bob.nickname = nil
            #expect(bob.nickname == nil)
            #expect(joe.nickname == "Joey")
        }

        @Test("An optional trait read with a default stores a non-nil default and not a nil one")
        func optionalDefault() {
            let owner = Owner()
            let none: String? = Injectable.get(traitName: "title", for: owner.injectableIdentifier, orDefaultTo: nil)
            #expect(none == nil)
            #expect(TraitStore.count(for: owner.injectableIdentifier) == 0)
            let some: String? = Injectable.get(
                traitName: "title",
                for: owner.injectableIdentifier,
                orDefaultTo: "Dr"
            )
            #expect(some == "Dr")
            let again: String? = Injectable.get(
                traitName: "title",
                for: owner.injectableIdentifier,
                orDefaultTo: "Prof"
            )
            #expect(again == "Dr")
        }

        @Test("The default is evaluated only when the trait is not stored yet")
        func defaultIsLazy() {
            var owner = Owner()
            owner.pet.name = "Coco"
            var evaluations = 0
            func makeDefault() -> Pet {
                evaluations += 1
                return .rover
            }
            let pet = Injectable.get(traitName: "pet", for: owner.injectableIdentifier, orDefaultTo: makeDefault())
            #expect(pet.name == "Coco")
            #expect(evaluations == 0)
        }
    }
}
