import TraitInjection

// A restaurant list, injected with @Inject.

final class RestaurantLister: Sendable {
    func restaurants() -> [String] { ["Noma", "Geranium", "Alchemist"] }
}

final class RestaurantListViewController {
    @Inject private var restaurantLister: RestaurantLister

    func reload() -> [String] { restaurantLister.restaurants() }
}

// A client and a server: a strong @Inject one way, a weak @WeakInject back.

protocol Server: AnyObject {
    var client: (any Client)? { get }
}

protocol Client: AnyObject {
    var server: any Server { get }
}

final class ServerImp: Server {
    @WeakInject var client: (any Client)?
}

final class ClientImp: Client {
    @Inject var server: any Server
}

/// Who looks after a person's pet: a trait whose default comes from the container.
struct Vet: Sendable {
    let name: String
}

/// The property-wrapper half of the tour: `@Inject` from `Container.shared`, auto-injection of a
/// cycle, and a trait default resolved from the container.
func runInjectTour() throws {
    print("== @Inject: a restaurant list ==")
    Container.shared.register(RestaurantLister.self) { _ in RestaurantLister() }
    let viewController = RestaurantListViewController()
    print("The list shows", viewController.reload().joined(separator: ", "))  // Noma, Geranium, Alchemist

    print("== Auto-injection: a client and a server ==")
    let container = Container()
    container.register((any Client).self) { _ in ClientImp() }
    container.register((any Server).self) { _ in ServerImp() }
    var client: (any Client)? = try container.resolve((any Client).self)
    let server = client!.server
    print("The server's client is the client:", server.client === client)  // true
    client = nil
    print("Once the client is released, the server's client is", server.client as Any)  // nil

    print("== Traits meet the container: a default resolved from Container.shared ==")
    Container.shared.register(Vet.self) { _ in Vet(name: "Dr. Herriot") }
    print("Joe's vet is", Person(name: "Joe", personality: .comical).vet.name)  // Dr. Herriot
    let countryside = Container(parent: .shared)
    countryside.register(Vet.self) { _ in Vet(name: "Dr. Dolittle") }
    Container.withShared(countryside) {
        print("In the countryside, Jess's vet is", Person(name: "Jess", personality: .serious).vet.name)
    }

    let unregistered = Container()
    unregistered.register((any Client).self) { _ in ClientImp() }
    do {
        _ = try unregistered.resolve((any Client).self)
    } catch {
        print(error)  // Server is not registered, needed by Client (…) → @Inject property (…). …
    }
}
