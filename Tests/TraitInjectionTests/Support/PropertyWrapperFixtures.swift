import TraitInjection

// Seed 003's restaurant list.

final class RestaurantLister: Sendable {
    let restaurants: [String]
    init(restaurants: [String] = ["Noma", "Geranium"]) { self.restaurants = restaurants }
}

final class RestaurantListViewController {
    @Inject private var restaurantLister: RestaurantLister

    var restaurantCount: Int { restaurantLister.restaurants.count }
    var lister: RestaurantLister {
        get { restaurantLister }
        set { restaurantLister = newValue }
    }
}

// Seed 002's client and server, auto-injected: a strong side and a weak back reference.

protocol InjectedServer: AnyObject {
    var client: (any InjectedClient)? { get }
}

protocol InjectedClient: AnyObject {
    var server: any InjectedServer { get }
}

final class AutoServer: InjectedServer {
    @WeakInject var client: (any InjectedClient)?
}

final class AutoClient: InjectedClient {
    @Inject var server: any InjectedServer
    static let serverLine = #line - 1
}

// Wrappers in value types, usable across tasks.

struct Screen: Sendable {
    @Inject var service: Service
}

struct NamedScreen: Sendable {
    @Inject(name: "special") var special: Service
    @Inject(arguments: 3, "x") var greeting: String
}

/// A weak reference to a plain object.
struct Observer: Sendable {
    @WeakInject var counter: Counter?
}

/// A property that nothing is registered for; its declaration line is checked by the tests.
struct Unresolvable {
    @Inject var missing: Counter
    static let missingLine = #line - 1
    @WeakInject var weakMissing: Counter?
    static let weakMissingLine = #line - 1
}

/// A weak property for a value, which cannot be held weakly.
struct WeakNumber {
    @WeakInject var number: Int?
}

/// A type whose reflection is counted, to check that auto-injection caches types without
/// injected properties.
final class Reflected: CustomReflectable, Sendable {
    static let reflections = Counter()

    var customMirror: Mirror {
        Self.reflections.increment()
        return Mirror(self, children: [])
    }
}

/// A base class with an injected property, and a subclass adding one.
class Base {
    @Inject var service: Service
}

final class Derived: Base {
    @Inject var lister: RestaurantLister
}

/// A class with no injected property, and a subclass that has one.
class Plain {}

final class PlainWithLister: Plain {
    @Inject var lister: RestaurantLister
}

/// Two properties that share a graph-scoped service.
final class Pair {
    @Inject var first: Service
    @Inject var second: Service
}
