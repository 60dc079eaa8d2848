import Observation
import Synchronization
import TestFixtures
import Testing
import TraitInjection

struct Dog: ToyInjected, BadgeInjected, SerialInjected, MoodInjected, FavouritesInjected {
    var injectableIdentifier = InjectableIdentifier()
}

/// Chooses its mood default from its own state, through the generated customisation point.
struct Cat: MoodInjected {
    var injectableIdentifier = InjectableIdentifier()
    var isGrumpy: Bool

    var defaultMood: String { isGrumpy ? MoodInjector.defaultGrumpyMood : MoodInjector.defaultCheerfulMood }
}

final class Kennel: ToyInjected {
    var injectableIdentifier = InjectableIdentifier()
}

@Suite("Code generated from a .traits file", .traitStoreExclusive)
struct GeneratedTraitTests {
    @Test("Generated properties start at their injector's default and keep what is set")
    func defaultsAndWrites() {
        var dog = Dog()
        #expect(dog.toy == "ball")
        #expect(dog.badge == 7)
        #expect(dog.serial == 42)
        #expect(dog.favourites.isEmpty)
        dog.toy = "rope"
        dog.favourites.append("walks")
        #expect(dog.toy == "rope")
        #expect(dog.favourites == ["walks"])
    }

    @Test("Generated setters copy on write without losing other traits")
    func copyOnWrite() {
        var rex = Dog()
        rex.toy = "rope"
        rex.badge = 1
        var fido = rex
        fido.toy = "kite"
        #expect(rex.toy == "rope")
        #expect(fido.toy == "kite")
        #expect(fido.badge == 1)
    }

    @Test("Named defaults are held by the injector and chosen through the customisation point")
    func namedDefaultsAndCustomisation() {
        #expect(Cat(isGrumpy: true).mood == "stormy")
        #expect(Cat(isGrumpy: false).mood == "sunny")
        #expect(Dog().mood == "calm")
    }

    @Test("An injector default can be overridden for the duration of a closure")
    func injectorOverride() {
        ToyInjector.toy.withValue("frisbee") {
            #expect(Dog().toy == "frisbee")
            #expect(ToyInjector.defaultToy == "frisbee")
        }
        #expect(Dog().toy == "ball")
    }

    @Test("A class instance held in a let sets its trait, and every reference sees it")
    func classThroughLet() {
        let kennel = Kennel()
        let sameKennel = kennel
        kennel.toy = "bone"
        #expect(sameKennel.toy == "bone")
    }

    @Test("A read-only trait keeps the default it first read")
    func readOnly() {
        let dog = Dog()
        #expect(dog.serial == 42)
        SerialInjector.serial.withValue(99) {
            #expect(dog.serial == 42)
            #expect(Dog().serial == 99)
        }
    }
}

/// An `@Observable` class adopting generated trait protocols, nothing more.
@Observable
final class ObservedKennel: ToyInjected, MoodInjected {
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()
}

@Suite("Generated traits of an @Observable class")
struct GeneratedObservationTests {
    @Test("A generated trait's set fires its observers once, and no other trait's")
    func generatedTraitsAreObserved() {
        let kennel = ObservedKennel()
        let fired = Mutex(0)
        withObservationTracking {
            _ = kennel.toy
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        kennel.mood = "sunny"
        #expect(fired.withLock { $0 } == 0)
        kennel.toy = "rope"
        #expect(fired.withLock { $0 } == 1)
        #expect(kennel.toy == "rope")
    }
}
