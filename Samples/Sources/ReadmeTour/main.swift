// The README's trait tour, on the traits of App.traits.
import TraitInjection

// sample-begin
struct Pet: Sendable { var name: String; let species: String }

struct Person: PetInjected {
    var injectableIdentifier = InjectableIdentifier()
    var name: String
}

var joe = Person(name: "Joe")
print(joe.pet)  // Pet(name: "Rover", species: "Dog")
joe.pet.name = "Coco"  // persists for joe

var bob = joe  // copies diverge on write, and keep all their other traits
bob.pet.name = "Bubba"  // joe.pet.name is still "Coco"

PetInjector.defaultPet = Pet(name: "Rex", species: "Dog")  // for instances not read yet
PetInjector.pet.withValue(Pet(name: "Tom", species: "Cat")) {
    print(Person(name: "Jen").pet)  // Pet(name: "Tom", species: "Cat"), in this task only
}
// sample-end
