// swift-format-ignore-file
// The user-side code of the seed article's full listing, unchanged, compiled in Swift 5 mode
// against the library. Only the library part of the listing is replaced, by `import TraitInjection`;
// the script runs inside `runSeedScript`, whose `print` parameter collects what it prints.

import TraitInjection

struct Pet {
var name:String
let species:String
}
protocol PetInjected : Injected { }
struct PetInjector {
static var defaultPet = Pet(name:"Rover", species:"Dog")
}
extension PetInjected {
var pet:Pet {
get {
return Injectable.get(traitName: "pet", for: injectableIdentifier, orDefaultTo: PetInjector.defaultPet)
} mutating set {
Injectable.set(traitName: "pet", for: &injectableIdentifier, to: newValue)
}
}
}
protocol CatchphraseInjected : Injected { }
extension CatchphraseInjected {
var catchphrase:String {
get {
var defaultCatchphrase = "..."
if let person = self as? Person {
switch person.personality {
case .Comical:
defaultCatchphrase = CatchphraseInjector.defaultComicalCatchphrase
case .Serious:
defaultCatchphrase = CatchphraseInjector.defaultSeriousCatchphrase
}
}
return Injectable.get(traitName: "catchphrase", for: injectableIdentifier, orDefaultTo: defaultCatchphrase)
} mutating set {
Injectable.set(traitName: "catchphrase", for: &injectableIdentifier, to: newValue)
}
}
}
struct CatchphraseInjector {
static var defaultComicalCatchphrase = "'Tis but a scratch!"
static var defaultSeriousCatchphrase = "I think, therefore I am"
}
enum PersonalityType {
case Comical
case Serious
}
struct Person: PetInjected, CatchphraseInjected {
var injectableIdentifier = InjectableIdentifier()
var name:String
let personality:PersonalityType
init(name:String, personality:PersonalityType) {
self.name = name
self.personality = personality
}
}

/// Runs the seed's script, handing each printed value to `print`.
public func runSeedScript(print: (Any) -> Void) {
var joe = Person(name: "Joe", personality: .Comical)
print(joe.pet) // Pet(name: "Rover", species: "Dog")
joe.pet.name = "Coco"
print(joe.pet) // Pet(name: "Coco", species: "Dog")
var bob = joe
bob.pet.name = "Bubba"
print(joe.pet) // Pet(name: "Coco", species: "Dog")
print(bob.pet) // Pet(name: "Bubba", species: "Dog")
var jen = Person(name: "Jen", personality: .Comical)
let jess = Person(name: "Jess", personality: .Serious)
print(jen.catchphrase) // 'Tis but a scratch!
print(jess.catchphrase) // I think, therefore I am
jen.catchphrase = "Wubba Wubba Wubba"
print(jen.catchphrase) // Wubba Wubba Wubba
}
