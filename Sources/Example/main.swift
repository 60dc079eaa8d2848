// `swift run Example`: a tour of traits (a person, a pet, a catchphrase), then of the container,
// its property wrappers, and its async and main-actor resolution.
//
// `swift run Example --dependency-graph-dot` prints the tour container's dependency graph in
// Graphviz's DOT: the Container article's picture (`dot -Tpng -Gdpi=144`).

import Observation
import TraitInjection
import TraitInjectionDiagnostics

if CommandLine.arguments.contains("--dependency-graph-dot") {
    print(makeTourContainer().dependencyGraph().dot, terminator: "")
} else {
    try await runTour()
}

/// The whole tour.
func runTour() async throws {
    print("== Traits: a person, a pet and a catchphrase ==")

    var joe = Person(name: "Joe", personality: .comical)
    print(joe.pet)  // Pet(name: "Rover", species: "Dog")
    joe.pet.name = "Coco"
    print(joe.pet)  // Pet(name: "Coco", species: "Dog")
    var bob = joe
    bob.pet.name = "Bubba"
    print(joe.pet)  // Pet(name: "Coco", species: "Dog")
    print(bob.pet)  // Pet(name: "Bubba", species: "Dog")

    var jen = Person(name: "Jen", personality: .comical)
    let jess = Person(name: "Jess", personality: .serious)
    print(jen.catchphrase)  // 'Tis but a scratch!
    print(jess.catchphrase)  // I think, therefore I am
    jen.catchphrase = "Wubba Wubba Wubba"
    print(jen.catchphrase)  // Wubba Wubba Wubba

    // An @Observable class's traits are observed: a SwiftUI view of `shop.pet` would update.
    let shop = PetShop()
    withObservationTracking {
        print("\(shop.name) has \(shop.pet.name)")  // Paws has Rover
    } onChange: {
        print("Observed: the shop's pet is changing")
    }
    shop.pet.name = "Nibbles"  // Observed: the shop's pet is changing
    print("\(shop.name) has \(shop.pet.name)")  // Paws has Nibbles

    print()
    try runContainerTour()

    print()
    try runDeclaredTour()

    print()
    try runInjectTour()

    print()
    try await runConcurrencyTour()
}
