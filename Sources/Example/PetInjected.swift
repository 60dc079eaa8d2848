import TraitInjection

/// Holds the pet every new ``PetInjected`` instance starts with.
enum PetInjector {
    /// The shared default, readable and settable from any thread.
    static let pet = InjectorDefault(Pet(name: "Rover", species: "Dog"))

    /// The pet an instance gets on first reading its `pet`.
    static var defaultPet: Pet {
        get { pet.value }
        set { pet.value = newValue }
    }
}

/// The key under which a ``PetInjected`` instance's pet is stored.
enum PetTrait: TraitKey {
    static var defaultValue: Pet { PetInjector.defaultPet }
}

/// Adopt to gain a persistent, per-instance, mutable `pet`.
protocol PetInjected: Injected {}

extension PetInjected {
    /// This instance's pet; ``PetInjector/defaultPet`` until set.
    var pet: Pet {
        get { self[trait: PetTrait.self] }
        set { self[trait: PetTrait.self] = newValue }
    }
}
