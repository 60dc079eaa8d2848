// The hand-written trait of *Getting started*.
// sample-begin
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
// sample-end
