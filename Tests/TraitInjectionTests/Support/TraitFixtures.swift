import Synchronization
import TraitInjection

struct Pet: Equatable, Sendable {
    var name: String
    let species: String

    static let rover = Pet(name: "Rover", species: "Dog")
}

enum TestPetInjector {
    static let pet = InjectorDefault(Pet.rover)
}

/// A typed trait whose default comes from an injector.
enum ToyTrait: TraitKey {
    static var defaultValue: String { "ball" }
}

/// A second typed trait with the same value type as `ToyTrait`.
enum SnackTrait: TraitKey {
    static var defaultValue: String { "biscuit" }
}

/// A trait whose default is resolved from `Container.shared`.
enum VetTrait: TraitKey {
    static let vet = InjectorDefault<Service>(.resolved(name: "vet"))
    static var defaultValue: Service { vet.value }
}

extension Owner {
    var vet: Service { self[trait: VetTrait.self] }
}

/// A struct with traits through both APIs, written the way the seed writes them.
struct Owner: Injected {
    var injectableIdentifier = InjectableIdentifier()
    var name = "Owner"

    var pet: Pet {
        get { Injectable.get(traitName: "pet", for: injectableIdentifier, orDefaultTo: TestPetInjector.pet.value) }
        set { Injectable.set(traitName: "pet", for: &injectableIdentifier, to: newValue) }
    }

    var nickname: String? {
        get { Injectable.get(traitName: "nickname", for: injectableIdentifier) }
        set { Injectable.set(traitName: "nickname", for: &injectableIdentifier, to: newValue) }
    }

    var toy: String {
        get { self[trait: ToyTrait.self] }
        set { self[trait: ToyTrait.self] = newValue }
    }

    var snack: String {
        get { self[trait: SnackTrait.self] }
        set { self[trait: SnackTrait.self] = newValue }
    }
}

/// A class with traits: every reference shares them, and a `let` reference can set them.
final class Kennel: Injected {
    var injectableIdentifier = InjectableIdentifier()

    var toy: String {
        get { self[trait: ToyTrait.self] }
        set { self[trait: ToyTrait.self] = newValue }
    }
}

/// Counts deinitialisations, from any thread.
final class DeinitCounter: Sendable {
    private let storage = Atomic<Int>(0)

    var count: Int { storage.load(ordering: .acquiring) }

    func increment() { storage.add(1, ordering: .releasing) }
}

/// A trait value that reports its own deinitialisation.
final class Tracked: Sendable {
    let counter: DeinitCounter

    init(_ counter: DeinitCounter) { self.counter = counter }

    deinit { counter.increment() }
}
