import TestFixtures
import Testing

@testable import TraitInjection

extension TraitTests {
    @Suite("TraitKey: the typed API")
    struct TraitKeyTests {
        @Test("A typed trait starts at its key's default and keeps what is set")
        func readAndWrite() {
            var owner = Owner()
            #expect(owner.toy == "ball")
            owner.toy = "rope"
            #expect(owner.toy == "rope")
            #expect(owner[trait: ToyTrait.self] == "rope")
        }

        @Test("Two keys with the same value type are two traits")
        func keysAreDistinct() {
            var owner = Owner()
            owner.toy = "rope"
            owner.snack = "bone"
            #expect(owner.toy == "rope")
            #expect(owner.snack == "bone")
        }

        @Test("A typed key never meets a string-named trait")
        func typedAndNamedAreDistinct() {
            var owner = Owner()
            owner.toy = "rope"
            let named: String? = Injectable.get(traitName: "ToyTrait", for: owner.injectableIdentifier)
            #expect(named == nil)
            Injectable.set(traitName: "", for: &owner.injectableIdentifier, to: "named")
            #expect(owner.toy == "rope")
        }

        @Test("trait(_:orDefaultTo:) lets an instance choose its own default, stored on first read")
        func customDefault() {
            var owner = Owner()
            #expect(owner.trait(ToyTrait.self, orDefaultTo: "kite") == "kite")
            #expect(owner.toy == "kite")
            owner.setTrait(ToyTrait.self, to: "yo-yo")
            #expect(owner.trait(ToyTrait.self, orDefaultTo: "kite") == "yo-yo")
        }

        @Test("Typed traits copy on write, losslessly")
        func copyOnWrite() {
            var joe = Owner()
            joe.toy = "rope"
            joe.snack = "bone"
            var bob = joe
            bob.toy = "kite"
            #expect(joe.toy == "rope")
            #expect(bob.toy == "kite")
            #expect(bob.snack == "bone")
        }

        @Test("All references to an object share its traits, and a let reference can set them")
        func classesShare() {
            let kennel = Kennel()
            let sameKennel = kennel
            kennel.toy = "rope"  // through a `let`
            #expect(sameKennel.toy == "rope")
            sameKennel[trait: SnackTrait.self] = "bone"
            #expect(kennel[trait: SnackTrait.self] == "bone")
            #expect(kennel.injectableIdentifier === sameKennel.injectableIdentifier)
        }

        @Test("A class instance's identifier is never replaced, even while another holder reads it")
        func classIdentifierIsStable() {
            let kennel = Kennel()
            let identifier = kennel.injectableIdentifier
            let heldElsewhere = kennel.injectableIdentifier
            kennel.toy = "rope"
            #expect(kennel.injectableIdentifier === identifier)
            #expect(kennel.toy == "rope")
            _ = heldElsewhere
        }
    }
}
