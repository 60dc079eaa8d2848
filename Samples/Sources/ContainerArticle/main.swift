// The *Container* article's samples, run in order, with checks of what their comments say.
import Synchronization
import TraitInjection
import TraitInjectionDiagnostics
// sample-begin
let container = Container()
container.register(Animal.self) { _ in Cat(name: "Mimi") }
container.register(Animal.self, name: "dog") { _ in Dog(name: "Hachi") }
container.register(Person.self) { r in
    PetOwner(name: "Stephen", pet: try r.resolve(Animal.self))
}

let person = try container.resolve(Person.self)
let dog = try container.resolve(Animal.self, name: "dog")
// sample-end

final class Database: Sendable {}

// sample-begin
let registration = container.register(Database.self) { _ in Database() }
registration.inScope(.container)
let database = try container.resolve(Database.self)  // the .container instance
// sample-end

let databaseAgain = try container.resolve(Database.self)
precondition(databaseAgain === database)

// sample-begin
container.register(Greeter.self) { (_, greeting: String, times: Int) in
    Greeter(greeting: greeting, times: times)
}
let greeter = try container.resolve(Greeter.self, arguments: "Hello", 3)
// sample-end

// sample-begin
container.register(ShoppingCart.self) { _ in ShoppingCart() }.inScope(.session)
container.register(ProductCatalog.self) { _ in ProductCatalog() }.inScope(.container)

let cart = try container.resolve(ShoppingCart.self)  // the same cart on every resolve, until logout
let catalog = try container.resolve(ProductCatalog.self)
// sample-end

let sameCart = try container.resolve(ShoppingCart.self)
precondition(sameCart === cart)

// sample-begin
container.resetScopedInstances(in: .session)  // the next resolve makes a new cart; the catalog stays
// sample-end

let nextCart = try container.resolve(ShoppingCart.self)
let nextCartAgain = try container.resolve(ShoppingCart.self)
let catalogAfterLogout = try container.resolve(ProductCatalog.self)
precondition(nextCart !== cart && nextCartAgain === nextCart && catalogAfterLogout === catalog)

// sample-begin
container.register(Checkout.self) { r in
    Checkout(analytics: try r.resolve(Analytics?.self))  // nil until an app registers Analytics
}
// sample-end

let checkoutWithout = try container.resolve(Checkout.self)
container.register(Analytics.self) { _ in Analytics() }
let checkoutWith = try container.resolve(Checkout.self)
precondition(checkoutWithout.analytics == nil && checkoutWith.analytics != nil)

// sample-begin
container.register(FileStore.self) { _ in FileStore() }
    .inScope(.container)
    .implements((any Reading).self) { $0 }
    .implements((any Writing).self) { $0 }

let reader = try container.resolve((any Reading).self)  // the one FileStore, under each type
// sample-end

let writer = try container.resolve((any Writing).self)
let store = try container.resolve(FileStore.self)
precondition(reader as? FileStore === store && writer as? FileStore === store)

// sample-begin
container.register(Greeting.self) { _ in Greeting(text: "Hello") }
container.autoregister(Welcome.self, initializer: Welcome.init)  // Welcome(greeting: Greeting, pet: Animal)
// sample-end

let welcome = try container.resolve(Welcome.self)
precondition(welcome.greeting.text == "Hello" && welcome.pet.name == "Mimi")

// sample-begin
struct PetAssembly: Assembly {
    func assemble(into container: Container) {
        container.register(Animal.self) { _ in Cat(name: "Mimi") }
    }
}

struct OwnerAssembly: Assembly {
    func assemble(into container: Container) {
        container.register(Person.self) { r in PetOwner(name: "Stephen", pet: try r.resolve(Animal.self)) }
    }
}

let app = Container(assemblies: [OwnerAssembly(), PetAssembly()])
// sample-end

let appOwner = try app.resolve(Person.self) as! PetOwner
precondition(appOwner.pet.name == "Mimi")
precondition(app.localRegistrations.contains { $0.hasSuffix("in OwnerAssembly") })

// sample-begin
container.register(ParentProtocol.self) { r in Parent(child: try r.resolve(ChildProtocol.self)) }
container.register(ChildProtocol.self) { _ in Child() }
    .initCompleted { r, child in
        (child as! Child).parent = try r.resolve(ParentProtocol.self)
    }
// sample-end

precondition(person.name == "Stephen" && dog.name == "Hachi")
precondition(greeter.greeting == "Hello" && greeter.times == 3)
let parent = try container.resolve(ParentProtocol.self) as! Parent
precondition((parent.child as! Child).parent === parent)

// sample-begin
container.register(PDFExporter.self) { _ in PDFExporter() }.inScope(.container)
container.register(Upload.self) { _ in Upload() }
// ReportScreen(exporter: Lazy<PDFExporter>, makeUpload: Provider<Upload>)
container.autoregister(ReportScreen.self, initializer: ReportScreen.init)

let screen = try container.resolve(ReportScreen.self)  // no exporter, no upload made yet
let exporter = try screen.exporter.value  // resolved now, then kept
let upload = try screen.makeUpload()  // a new Upload on each call
// sample-end

let exporterAgain = try screen.exporter.value
let singleton = try container.resolve(PDFExporter.self)
let anotherUpload = try screen.makeUpload()
precondition(exporterAgain === exporter && exporter === singleton && anotherUpload !== upload)

// sample-begin
let graph = container.dependencyGraph()
print(graph.mermaid)  // flowchart LR …
let dot = graph.dot  // dot -Tpng graph.dot -o graph.png
// sample-end

precondition(graph.mermaid.hasPrefix("flowchart LR") && dot.hasPrefix("digraph Dependencies {"))

// sample-begin
container.resolutionTrace = { event in print(event) }
_ = try container.resolve(Person.self)
// Person [graph] new (main.swift:9)
//   Animal [graph] new (main.swift:7)
container.resolutionTrace = nil
// sample-end

let traced = Mutex<[String]>([])
container.resolutionTrace = { event in traced.withLock { $0.append(event.description) } }
_ = try container.resolve(Person.self)
container.resolutionTrace = nil
precondition(traced.withLock { $0 } == ["Person [graph] new (main.swift:9)", "  Animal [graph] new (main.swift:7)"])

// sample-begin
Container.shared.register(RestaurantLister.self) { _ in RestaurantLister() }

final class RestaurantListViewController {
    @Inject private var lister: RestaurantLister
    @Inject(name: "dog") private var dog: Animal
    @Inject(arguments: "Hello", 3) private var greeter: Greeter
}
// sample-end

// sample-begin
final class ClientImp: Client { @Inject var server: Server }
final class ServerImp: Server { @WeakInject var client: Client? }

container.register(Client.self) { _ in ClientImp() }
container.register(Server.self) { _ in ServerImp() }
let client = try container.resolve(Client.self)  // client.server.client === client
// sample-end

let server = (client as! ClientImp).server as! ServerImp
precondition(server.client === client)
print("The Container article's samples ran.")
