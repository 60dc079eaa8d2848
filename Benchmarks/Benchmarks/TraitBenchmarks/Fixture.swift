import Synchronization
import TraitInjection

/// The trait value every benchmark reads and writes: the seed article's pet, two small strings.
struct Pet: Sendable {
    var name: String
    let species: String

    static var rover: Pet { Pet(name: "Rover", species: "Dog") }
}

/// The typed key for the `typedPet` trait.
enum PetTrait: TraitKey {
    static var defaultValue: Pet { .rover }
}

/// The instance type under test, with the same trait exposed through both APIs.
struct Owner: Injected {
    var injectableIdentifier = InjectableIdentifier()

    /// The trait through the seed's string-named API.
    var pet: Pet {
        get { Injectable.get(traitName: "pet", for: injectableIdentifier, orDefaultTo: .rover) }
        set { Injectable.set(traitName: "pet", for: &injectableIdentifier, to: newValue) }
    }

    /// The trait through the typed key.
    var typedPet: Pet {
        get { self[trait: PetTrait.self] }
        set { self[trait: PetTrait.self] = newValue }
    }
}

/// Which API a population's owners read their one trait through.
enum PopulationTrait {
    case stringAPI
    case typedKey
}

/// `count` live owners, each of which has read one trait once, so the store holds `count` values.
///
/// A class, so that the set benchmarks can take the array out, mutate it in place and put it back
/// without copying a million elements.
final class OwnerPopulation {
    var owners: [Owner]

    init(count: Int, reading trait: PopulationTrait) {
        let storedBefore = Injectable.storedTraitCount
        owners = []
        owners.reserveCapacity(count)
        for _ in 0..<count {
            let owner = Owner()
            switch trait {
            case .stringAPI: _ = owner.pet
            case .typedKey: _ = owner.typedPet
            }
            owners.append(owner)
        }
        precondition(Injectable.storedTraitCount == storedBefore + count, "population not stored")
    }
}

/// The key of the floor benchmark's dictionary: the owner object's identity and the trait's name.
struct FloorKey: Hashable {
    let owner: ObjectIdentifier
    let name: String
}

/// An owner for the floor benchmark: a bare object, whose identity is the key.
final class FloorOwner {}

/// The floor: the least a thread-safe, per-instance, string-named store can do on a read, that is
/// one lock, one hash lookup of (object, name) and a cast back from `Any`.
final class LockedDictionaryFloor {
    let owners: [FloorOwner]
    let mutex: Mutex<[FloorKey: Any]>

    init(count: Int) {
        let owners = (0..<count).map { _ in FloorOwner() }
        var entries: [FloorKey: Any] = [:]
        entries.reserveCapacity(count)
        for owner in owners {
            entries[FloorKey(owner: ObjectIdentifier(owner), name: "pet")] = Pet.rover
        }
        self.owners = owners
        mutex = Mutex(entries)
    }

    func pet(of owner: FloorOwner) -> Pet? {
        let key = FloorKey(owner: ObjectIdentifier(owner), name: "pet")
        return mutex.withLock { $0[key] as? Pet }
    }
}
