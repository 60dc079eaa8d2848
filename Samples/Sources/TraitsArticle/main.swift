// The *Traits* article's samples, each in its own scope, with checks of what their comments say.
import Observation
import Synchronization
import TraitInjection

func storedOnFirstRead() {
    // sample-begin
    let jess = Person(name: "Jess")
    _ = jess.pet  // Rover, now stored for jess
    PetInjector.defaultPet = Pet(name: "Rex", species: "Dog")
    print(jess.pet.name)  // Rover
    print(Person(name: "Jen").pet.name)  // Rex
    // sample-end
    precondition(jess.pet.name == "Rover" && Person(name: "Jen").pet.name == "Rex")
}

func copiesDiverge() {
    var joe = Person(name: "Joe")
    joe.pet.name = "Coco"
    // sample-begin
    joe.catchphrase = "Cowabunga"
    var bob = joe
    bob.pet.name = "Bubba"
    print(joe.pet.name)  // Coco
    print(bob.catchphrase)  // Cowabunga — not reset to the default
    // sample-end
    precondition(joe.pet.name == "Coco" && bob.pet.name == "Bubba" && bob.catchphrase == "Cowabunga")
}

func defaultPerCopy() {
    // sample-begin
    let jen = Person(name: "Jen", personality: .comical)
    print(jen.catchphrase)  // "'Tis but a scratch!", stored for Jen
    var jess = jen
    jess.personality = .serious
    print(jess.catchphrase)  // "'Tis but a scratch!": Jen's, shared with her copy
    jess.resetTrait(CatchphraseTrait.self)
    print(jess.catchphrase)  // "I think, therefore I am"
    print(jen.catchphrase)  // "'Tis but a scratch!"
    // sample-end
    precondition(jess.catchphrase == "I think, therefore I am" && jen.catchphrase == "'Tis but a scratch!")
}

func observingTraits() {
    PetInjector.defaultPet = Pet(name: "Rover", species: "Dog")  // as the sample's comment says
    let changes = Mutex(0)
    // sample-begin
    let shop = PetShop()
    withObservationTracking {
        print(shop.pet.name)  // Rover
    } onChange: {
        print("The shop's pet is changing")
    }
    shop.pet.name = "Coco"  // The shop's pet is changing
    shop.name = "Claws"  // nothing: a view of shop.pet does not depend on shop.name
    // sample-end
    precondition(shop.pet.name == "Coco" && shop.name == "Claws")
    withObservationTracking {
        _ = shop.pet
    } onChange: {
        changes.withLock { $0 += 1 }
    }
    shop.name = "Whiskers"
    PetInjector.defaultPet = Pet(name: "Tom", species: "Cat")
    precondition(changes.withLock { $0 } == 0, "only a set of shop.pet fires its observers")
    shop.pet.name = "Bubba"
    precondition(changes.withLock { $0 } == 1 && shop.pet.name == "Bubba")
}

@MainActor
func observingAViewModel() {
    PetInjector.defaultPet = Pet(name: "Rover", species: "Dog")  // as the sample's comment says
    let changes = Mutex(0)
    // sample-begin
    let model = PetShopModel()
    withObservationTracking {
        print(model.pet.name)  // Rover
    } onChange: {
        print("The model's pet is changing")
    }
    model.pet.name = "Coco"  // The model's pet is changing
    // sample-end
    withObservationTracking {
        _ = model.pet
    } onChange: {
        changes.withLock { $0 += 1 }
    }
    model.title = "Tomorrow's pet"
    precondition(changes.withLock { $0 } == 0, "only a set of model.pet fires its observers")
    model.pet = Pet(name: "Tom", species: "Cat")
    precondition(changes.withLock { $0 } == 1 && model.pet.name == "Tom")
}

func observingStringNamedTraits() {
    let kennel = Kennel()
    let changes = Mutex(0)
    withObservationTracking {
        _ = kennel.nickname
    } onChange: {
        changes.withLock { $0 += 1 }
    }
    kennel.nickname = "Barkley's"
    precondition(changes.withLock { $0 } == 1 && kennel.nickname == "Barkley's", "a string-named set fires")
}

storedOnFirstRead()
copiesDiverge()
defaultPerCopy()
observingTraits()
observingAViewModel()
observingStringNamedTraits()
