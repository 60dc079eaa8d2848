import TraitInjection
import TraitInjectionDiagnostics

// The services of the container tour.

protocol Animal: AnyObject, Sendable {
    var name: String { get }
}

protocol Owner: Sendable {
    var name: String { get }
}

final class Cat: Animal {
    let name: String
    init(name: String) { self.name = name }
}

final class Dog: Animal {
    let name: String
    init(name: String) { self.name = name }
}

final class PetOwner: Owner {
    let name: String
    let pet: any Animal

    init(name: String, pet: any Animal) {
        self.name = name
        self.pet = pet
    }
}

// A parent and a child that need each other.

final class Parent: @unchecked Sendable {
    let child: Child
    init(child: Child) { self.child = child }
}

final class Child: @unchecked Sendable {
    weak var parent: Parent?
}

/// The tour's container: animals, an owner, and a parent and child that need each other.
func makeTourContainer() -> Container {
    let container = Container()
    container.register((any Animal).self) { _ in Cat(name: "Mimi") }
    container.register((any Animal).self, name: "dog") { _ in Dog(name: "Hachi") }
    container.register((any Owner).self) { r in
        PetOwner(name: "Stephen", pet: try r.resolve((any Animal).self))
    }
    container.register(Parent.self) { r in Parent(child: try r.resolve(Child.self)) }
    container.register(Child.self) { _ in Child() }
        .initCompleted { r, child in child.parent = try r.resolve(Parent.self) }
    return container
}

/// The container half of the tour: the registrations of animals and owners, a circular dependency completed by
/// `initCompleted`, the dependency graph, and the error an initializer/initializer cycle produces.
func runContainerTour() throws {
    print("== Container: animals and owners ==")
    let container = makeTourContainer()
    let owner = try container.resolve((any Owner).self)
    let pet = (owner as! PetOwner).pet
    print(owner.name, "owns", pet.name, "the", type(of: pet))  // Stephen owns Mimi the Cat
    let dog = try container.resolve((any Animal).self, name: "dog")
    print("The dog is", dog.name)  // The dog is Hachi

    print("== Container: a circular parent and child ==")
    let parent = try container.resolve(Parent.self)
    print("The child's parent is the parent:", parent.child.parent === parent)  // true

    print("== Container: the dependency graph, as Mermaid ==")
    // `swift run Example --dependency-graph-dot` prints it in Graphviz's DOT instead.
    print(container.dependencyGraph().mermaid, terminator: "")

    let broken = Container()
    broken.register(Parent.self) { r in Parent(child: try r.resolve(Child.self)) }
    broken.register(Child.self) { r in
        _ = try r.resolve(Parent.self)
        return Child()
    }
    do {
        _ = try broken.resolve(Parent.self)
    } catch {
        print(error)  // Circular dependency: Parent (ContainerTour.swift:…) → Child (…) → Parent. …
    }
}
