// *Getting started*: adopting the hand-written trait of PetTrait.swift.
import TraitInjection

// sample-begin
struct Person: PetInjected {
    var injectableIdentifier = InjectableIdentifier()
    var name: String
}

var joe = Person(name: "Joe")
print(joe.pet)  // Pet(name: "Rover", species: "Dog")
joe.pet.name = "Coco"
print(joe.pet)  // Pet(name: "Coco", species: "Dog")
// sample-end
