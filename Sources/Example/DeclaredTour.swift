import TraitInjection

// The services of the declared-services tour: each a computed property of `Container`, with its
// default beside it.

final class Kennel: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

struct DogWalker {
    let name: String
    let kennel: Kennel
}

extension Container {
    var kennel: Registered<Kennel> { self { _ in Kennel(name: "Happy Paws") }.inScope(.container) }
    var walker: RegisteredWith<String, DogWalker> {
        self { r, name in DogWalker(name: name, kennel: try r.kennel()) }
    }
}

/// The declared half of the container tour: a service resolved with nothing registered, one with
/// an argument, an override for a test and its reset.
func runDeclaredTour() throws {
    print("== Container: declared services ==")
    let container = Container()
    let walker = try container.walker("Ana")
    print(walker.name, "walks dogs from", walker.kennel.name)  // Ana walks dogs from Happy Paws
    print("One kennel:", walker.kennel === (try container.kennel()))  // true

    container.kennel.register { _ in Kennel(name: "Test Kennel") }
    print("Overridden:", try container.walker("Ben").kennel.name)  // Overridden: Test Kennel
    container.kennel.reset()
    print("Reset:", try container.walker("Ben").kennel.name)  // Reset: Happy Paws
}
