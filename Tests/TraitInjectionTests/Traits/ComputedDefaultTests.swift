import TestFixtures
import Testing

@testable import TraitInjection

/// A trait whose default each instance computes from its own state.
enum GreetingTrait: TraitKey {
    static var defaultValue: String { "Hello" }
}

/// A struct whose greeting defaults to one made from its name.
struct Greeter: Injected {
    var injectableIdentifier = InjectableIdentifier()
    var name: String

    var greeting: String {
        get { trait(GreetingTrait.self, orDefaultTo: "Hello, \(name)") }
        set { setTrait(GreetingTrait.self, to: newValue) }
    }
}

/// A class whose greeting defaults to one made from its name.
final class GreeterObject: Injected {
    var injectableIdentifier = InjectableIdentifier()
    var name: String

    init(name: String) { self.name = name }

    var greeting: String {
        trait(GreetingTrait.self, orDefaultTo: "Hello, \(name)")
    }
}

extension TraitTests {
    @Suite("Defaults computed from an instance's state")
    struct ComputedDefaultTests {
        @Test("The first read stores the default for every copy sharing the traits at that moment")
        func firstReadStoresForSharers() {
            let joe = Greeter(name: "Joe")
            var bob = joe
            bob.name = "Bob"
            // Joe reads first: his default is stored for the traits he shares with Bob.
            #expect(joe.greeting == "Hello, Joe")
            #expect(bob.greeting == "Hello, Joe")
            // Once stored, it stays, whatever the state does.
            var renamed = joe
            renamed.name = "Joseph"
            #expect(renamed.greeting == "Hello, Joe")
        }

        @Test("resetTrait gives a copy the default of its own state; the other copies keep theirs")
        func resetGivesACopyItsOwnDefault() {
            let joe = Greeter(name: "Joe")
            #expect(joe.greeting == "Hello, Joe")
            var bob = joe
            bob.name = "Bob"
            bob.resetTrait(GreetingTrait.self)
            #expect(bob.greeting == "Hello, Bob")
            #expect(joe.greeting == "Hello, Joe")
            // The reset copy kept every other trait (copy-on-write is lossless).
            var withToy = Owner()
            withToy.toy = "rope"
            withToy.snack = "bone"
            var copy = withToy
            copy.resetTrait(ToyTrait.self)
            #expect(copy.toy == "ball")
            #expect(copy.snack == "bone")
            #expect(withToy.toy == "rope")
        }

        @Test("resetTrait on a copy made before any read leaves the original's stored value alone")
        func resetBeforeAnyRead() {
            var joe = Greeter(name: "Joe")
            joe.greeting = "Howdy"
            var bob = joe
            bob.name = "Bob"
            bob.resetTrait(GreetingTrait.self)
            #expect(joe.greeting == "Howdy")
            #expect(bob.greeting == "Hello, Bob")
        }

        @Test("On a class, resetTrait makes every reference read the default afresh")
        func resetOnAClass() {
            let object = GreeterObject(name: "Ann")
            let sameObject = object
            #expect(object.greeting == "Hello, Ann")
            object.name = "Anna"
            #expect(sameObject.greeting == "Hello, Ann")
            sameObject.resetTrait(GreetingTrait.self)
            #expect(object.greeting == "Hello, Anna")
            #expect(object.injectableIdentifier === sameObject.injectableIdentifier)
        }

        @Test("resetTrait releases the forgotten value and lowers the stored count")
        func resetReleases() {
            var owner = Owner()
            let before = Injectable.storedTraitCount
            owner.toy = "rope"
            #expect(Injectable.storedTraitCount == before + 1)
            owner.resetTrait(ToyTrait.self)
            #expect(Injectable.storedTraitCount == before)
            // Resetting what is not stored changes nothing.
            owner.resetTrait(ToyTrait.self)
            #expect(Injectable.storedTraitCount == before)
        }
    }
}
