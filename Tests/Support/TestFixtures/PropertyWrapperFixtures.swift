package import TraitInjection

// Seed 003's restaurant list.

package final class RestaurantLister: Sendable {
    package let restaurants: [String]
    package init(restaurants: [String] = ["Noma", "Geranium"]) { self.restaurants = restaurants }
}

package final class RestaurantListViewController {
    @Inject private var restaurantLister: RestaurantLister

    package init() {}

    package var restaurantCount: Int { restaurantLister.restaurants.count }
    package var lister: RestaurantLister {
        get { restaurantLister }
        set { restaurantLister = newValue }
    }
}

// Seed 002's client and server, auto-injected: a strong side and a weak back reference.

package protocol InjectedServer: AnyObject {
    var client: (any InjectedClient)? { get }
}

package protocol InjectedClient: AnyObject {
    var server: any InjectedServer { get }
}

package final class AutoServer: InjectedServer {
    @WeakInject package var client: (any InjectedClient)?
    package init() {}
}

package final class AutoClient: InjectedClient {
    @Inject package var server: any InjectedServer
    package static let serverLine = #line - 1
    package init() {}
}

// Wrappers in value types, usable across tasks.

package struct Screen: Sendable {
    @Inject package var service: Service
    package init() {}
}

package struct NamedScreen: Sendable {
    @Inject(name: "special") package var special: Service
    @Inject(arguments: 3, "x") package var greeting: String
    package init() {}
}

/// A weak reference to a plain object.
package struct Observer: Sendable {
    @WeakInject package var counter: Counter?
    package init() {}
}

/// A property that nothing is registered for; its declaration line is checked by the tests.
package struct Unresolvable {
    @Inject package var missing: Counter
    package static let missingLine = #line - 1
    @WeakInject package var weakMissing: Counter?
    package static let weakMissingLine = #line - 1
    package init() {}
}

/// A weak property for a value, which cannot be held weakly.
package struct WeakNumber {
    @WeakInject package var number: Int?
    package init() {}
}

/// A type whose reflection is counted, to check that auto-injection caches types without
/// injected properties.
package final class Reflected: CustomReflectable, Sendable {
    package static let reflections = Counter()
    package init() {}

    package var customMirror: Mirror {
        Self.reflections.increment()
        return Mirror(self, children: [])
    }
}

/// A base class with an injected property, and a subclass adding one.
package class Base {
    @Inject package var service: Service
    package init() {}
}

package final class Derived: Base {
    @Inject package var lister: RestaurantLister
    package override init() {}
}

/// A class with no injected property, and a subclass that has one.
package class Plain {
    package init() {}
}

package final class PlainWithLister: Plain {
    @Inject package var lister: RestaurantLister
    package override init() {}
}

/// Two properties that share a graph-scoped service.
package final class Pair {
    @Inject package var first: Service
    @Inject package var second: Service
    package init() {}
}
