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

/// Opened asynchronously.
final class Database: Sendable {
    let path: String

    private init(path: String) { self.path = path }

    static func open(_ path: String) async throws -> Database {
        await Task.yield()
        return Database(path: path)
    }
}

@MainActor
final class ProfileViewModel {
    let title = "Profile"
}

final class Settings: Sendable {
    let theme: String
    init(theme: String) { self.theme = theme }
}
