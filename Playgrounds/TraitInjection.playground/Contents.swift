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

 Playgrounds do not run build plugins, so here they are written out as the generator writes them
 (a test of the package keeps them so).
 */
// The generator's output for the traits above, without its doc comments and line directives.
import TraitInjection

struct PetInjector {
    typealias Value = Pet
    static let pet = InjectorDefault<Value>(Pet(name: "Rover", species: "Dog"))

    static var defaultPet: Value {
        get { pet.value }
        set { pet.value = newValue }
    }
}

enum PetTrait {
    static var defaultValue: PetInjector.Value { PetInjector.defaultPet }
}

extension PetTrait: TraitKey {}

protocol PetInjected: Injected {
    var defaultPet: PetInjector.Value { get }
}

extension PetInjected {
    var defaultPet: PetInjector.Value { PetInjector.defaultPet }

    var pet: PetInjector.Value {
        get { trait(PetTrait.self, orDefaultTo: defaultPet) }
        set { setTrait(PetTrait.self, to: newValue) }
    }
}

extension PetInjected where Self: AnyObject {
    var pet: PetInjector.Value {
        get { trait(PetTrait.self, orDefaultTo: defaultPet) }
        nonmutating set { setTrait(PetTrait.self, to: newValue) }
    }
}

struct CatchphraseInjector {
    typealias Value = String
    static let catchphrase = InjectorDefault<Value>("...")
    static let comicalCatchphrase = InjectorDefault<Value>("'Tis but a scratch!")
    static let seriousCatchphrase = InjectorDefault<Value>("I think, therefore I am")

    static var defaultCatchphrase: Value {
        get { catchphrase.value }
        set { catchphrase.value = newValue }
    }

    static var defaultComicalCatchphrase: Value {
        get { comicalCatchphrase.value }
        set { comicalCatchphrase.value = newValue }
    }

    static var defaultSeriousCatchphrase: Value {
        get { seriousCatchphrase.value }
        set { seriousCatchphrase.value = newValue }
    }
}

enum CatchphraseTrait {
    static var defaultValue: CatchphraseInjector.Value { CatchphraseInjector.defaultCatchphrase }
}

extension CatchphraseTrait: TraitKey {}

/// The customisation point: a type may choose its own default from its own state.
protocol CatchphraseInjected: Injected {
    var defaultCatchphrase: CatchphraseInjector.Value { get }
}

extension CatchphraseInjected {
    var defaultCatchphrase: CatchphraseInjector.Value { CatchphraseInjector.defaultCatchphrase }

    var catchphrase: CatchphraseInjector.Value {
        get { trait(CatchphraseTrait.self, orDefaultTo: defaultCatchphrase) }
        set { setTrait(CatchphraseTrait.self, to: newValue) }
    }
}

extension CatchphraseInjected where Self: AnyObject {
    var catchphrase: CatchphraseInjector.Value {
        get { trait(CatchphraseTrait.self, orDefaultTo: defaultCatchphrase) }
        nonmutating set { setTrait(CatchphraseTrait.self, to: newValue) }
    }
}
// End of the generator's output.

struct Pet: Sendable {
    var name: String
    let species: String
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
        personality == .comical
            ? CatchphraseInjector.defaultComicalCatchphrase : CatchphraseInjector.defaultSeriousCatchphrase
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
