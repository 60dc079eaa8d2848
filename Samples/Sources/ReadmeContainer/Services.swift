// The services the README's container samples use.

protocol Animal: Sendable { var name: String { get } }
struct Cat: Animal { let name: String }
struct Dog: Animal { let name: String }

protocol Person { var name: String { get } }
struct PetOwner: Person {
    let name: String
    let pet: any Animal
}

struct Greeter {
    let greeting: String
    let times: Int
    init(_ greeting: String, _ times: Int) {
        self.greeting = greeting
        self.times = times
    }
}

final class RestaurantLister {
    var restaurants: [String] { ["Chez Panisse", "Noma"] }
}
