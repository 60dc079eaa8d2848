/*:
 # TraitInjection: a tour of traits

 Open `Package.swift` in Xcode, build the `TraitInjection` scheme, then run this page.

 In a package, a `.traits` file and `TraitGenPlugin` write the declarations below for you:

 ```
 trait pet: Pet = Pet(name: "Rover", species: "Dog")
 trait catchphrase: String = "..."
     default comical = "'Tis but a scratch!"
     default serious = "I think, therefore I am"
 ```

 Playgrounds do not run build plugins, so here they are written out, in the shape the generator
 gives them.
 */
import TraitInjection

struct Pet: Sendable {
    var name: String
    let species: String
}

struct PetInjector {
    static let pet = InjectorDefault(Pet(name: "Rover", species: "Dog"))
    static var defaultPet: Pet {
        get { pet.value }
        set { pet.value = newValue }
    }
}

enum PetTrait: TraitKey {
    static var defaultValue: Pet { PetInjector.defaultPet }
}

protocol PetInjected: Injected {}

extension PetInjected {
    var pet: Pet {
        get { self[trait: PetTrait.self] }
        set { self[trait: PetTrait.self] = newValue }
    }
}

struct CatchphraseInjector {
    static let comical = InjectorDefault("'Tis but a scratch!")
    static let serious = InjectorDefault("I think, therefore I am")
}

enum CatchphraseTrait: TraitKey {
    static var defaultValue: String { "..." }
}

/// The customisation point: a type chooses its own default from its own state.
protocol CatchphraseInjected: Injected {
    var defaultCatchphrase: String { get }
}

extension CatchphraseInjected {
    var defaultCatchphrase: String { CatchphraseTrait.defaultValue }

    var catchphrase: String {
        get { trait(CatchphraseTrait.self, orDefaultTo: defaultCatchphrase) }
        set { setTrait(CatchphraseTrait.self, to: newValue) }
    }
}

//: Adopt the traits: every `Person` now has its own `pet` and `catchphrase`.
enum Personality {
    case comical, serious
}

struct Person: PetInjected, CatchphraseInjected {
    var injectableIdentifier = InjectableIdentifier()
    var name: String
    let personality: Personality

    var defaultCatchphrase: String {
        personality == .comical ? CatchphraseInjector.comical.value : CatchphraseInjector.serious.value
    }
}

//: Each instance keeps what it is given.
var joe = Person(name: "Joe", personality: .comical)
print(joe.pet)  // Pet(name: "Rover", species: "Dog")
joe.pet.name = "Coco"
print(joe.pet)  // Pet(name: "Coco", species: "Dog")

//: Copies diverge on write, and keep every other trait.
joe.catchphrase = "Cowabunga"
var bob = joe
bob.pet.name = "Bubba"
print(joe.pet.name, bob.pet.name)  // Coco Bubba
print(bob.catchphrase)  // Cowabunga

//: The default is chosen per instance, from its own state.
let jess = Person(name: "Jess", personality: .serious)
print(jess.catchphrase)  // I think, therefore I am

//: Change a default for everyone who has not read it yet, or just for one task, as a test does.
PetInjector.pet.withValue(Pet(name: "Tom", species: "Cat")) {
    print(Person(name: "Jen", personality: .comical).pet)  // Pet(name: "Tom", species: "Cat")
}
