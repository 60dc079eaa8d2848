/// A pet, injected into every ``PetInjected`` instance.
struct Pet: Equatable {
    var name: String
    let species: String
}
