// The overview of the DocC catalog (TraitInjection.md).
import TraitInjection

// sample-begin
struct Person: PetInjected {
    var injectableIdentifier = InjectableIdentifier()
    var name: String
}

var joe = Person(name: "Joe")
joe.pet.name = "Coco"  // stored for joe
var bob = joe
bob.pet.name = "Bubba"  // bob gets his own copy; joe keeps Coco
// sample-end

// sample-begin
let container = Container()
container.register(Animal.self) { _ in Cat(name: "Mimi") }
let animal = try container.resolve(Animal.self)
// sample-end

// sample-begin
final class RestaurantListViewController {
    @Inject private var lister: RestaurantLister
}
// sample-end

print(joe.pet.name, bob.pet.name, animal)
