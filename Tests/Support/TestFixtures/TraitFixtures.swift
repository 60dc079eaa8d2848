import Synchronization
package import TraitInjection

package struct Pet: Equatable, Sendable {
    package var name: String
    package let species: String

    package static let rover = Pet(name: "Rover", species: "Dog")

    package init(name: String, species: String) {
        self.name = name
        self.species = species
    }
}

package struct TestPetInjector {
    package static let pet = InjectorDefault(Pet.rover)
}

/// A typed trait whose default comes from an injector.
package enum ToyTrait: TraitKey {
    package static var defaultValue: String { "ball" }
}

/// A second typed trait with the same value type as `ToyTrait`.
package enum SnackTrait: TraitKey {
    package static var defaultValue: String { "biscuit" }
}

/// A trait whose default is resolved from `Container.shared`.
package enum VetTrait: TraitKey {
    package static let vet = InjectorDefault<Service>(.resolved(name: "vet"))
    package static var defaultValue: Service { vet.value }
}

extension Owner {
    package var vet: Service { self[trait: VetTrait.self] }
}

/// A struct with traits through both APIs, written the way the seed writes them.
package struct Owner: Injected {
    package var injectableIdentifier = InjectableIdentifier()
    package var name = "Owner"

    package init() {}

    package var pet: Pet {
        get { Injectable.get(traitName: "pet", for: injectableIdentifier, orDefaultTo: TestPetInjector.pet.value) }
        set { Injectable.set(traitName: "pet", for: &injectableIdentifier, to: newValue) }
    }

    package var nickname: String? {
        get { Injectable.get(traitName: "nickname", for: injectableIdentifier) }
        set { Injectable.set(traitName: "nickname", for: &injectableIdentifier, to: newValue) }
    }

    package var toy: String {
        get { self[trait: ToyTrait.self] }
        set { self[trait: ToyTrait.self] = newValue }
    }

    package var snack: String {
        get { self[trait: SnackTrait.self] }
        set { self[trait: SnackTrait.self] = newValue }
    }
}

/// A class with traits: every reference shares them, and a `let` reference can set them.
package final class Kennel: Injected {
    package var injectableIdentifier = InjectableIdentifier()

    package init() {}

    package var toy: String {
        get { self[trait: ToyTrait.self] }
        set { self[trait: ToyTrait.self] = newValue }
    }
}

/// Counts deinitialisations, from any thread.
package final class DeinitCounter: Sendable {
    private let storage = Atomic<Int>(0)

    package init() {}

    package var count: Int { storage.load(ordering: .acquiring) }

    package func increment() { storage.add(1, ordering: .releasing) }
}

/// A trait value that reports its own deinitialisation.
package final class Tracked: Sendable {
    package let counter: DeinitCounter

    package init(_ counter: DeinitCounter) { self.counter = counter }

    deinit { counter.increment() }
}
