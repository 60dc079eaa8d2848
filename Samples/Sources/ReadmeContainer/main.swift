// The README's container and property wrapper samples.
import TraitInjection

// sample-begin
let container = Container()
container.register(Animal.self) { _ in Cat(name: "Mimi") }
container.register(Animal.self, name: "dog") { _ in Dog(name: "Hachi") }
container.register(Person.self) { r in PetOwner(name: "Stephen", pet: try r.resolve(Animal.self)) }
container.register(Greeter.self) { (_, greeting: String, times: Int) in Greeter(greeting, times) }
    .inScope(.transient)  // .transient, .graph (default), .container, .weak, or a scope of your own

let person = try container.resolve(Person.self)  // throws ResolutionError, never traps
let greeter = try container.resolve(Greeter.self, arguments: "Hi", 2)
// sample-end

print(person.name, greeter.greeting, greeter.times)

// sample-begin
extension Container {
    var settings: Registered<Settings> { self { _ in Settings(theme: "dark") }.inScope(.container) }
}
let settings = try Container.shared.settings()
Container.shared.settings.register { _ in Settings(theme: "light") }  // in a test or a preview
// sample-end

let overridden = try Container.shared.settings()
precondition(settings.theme == "dark" && overridden.theme == "light")

// sample-begin
Container.shared.register(RestaurantLister.self) { _ in RestaurantLister() }
final class RestaurantListViewController {
    @Inject private var lister: RestaurantLister  // resolved on first access, then kept
}
// sample-end

// sample-begin
container.register(Database.self) { _ in try await Database.open("app.sqlite") }  // awaits
    .inScope(.container)
container.register(ProfileViewModel.self) { @MainActor _ in ProfileViewModel() }

let database = try await container.resolveAsync(Database.self)
let viewModel = try await container.resolveAsync(ProfileViewModel.self)  // made on the main actor
// sample-end

precondition(database.path == "app.sqlite" && viewModel.title == "Profile")
