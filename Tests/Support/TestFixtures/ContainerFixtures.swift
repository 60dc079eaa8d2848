import Synchronization
package import TraitInjection

// Seed 004's types.

package protocol Animal: AnyObject, Sendable {
    var name: String { get }
}

package protocol Person: Sendable {
    var name: String { get }
}

package final class Cat: Animal {
    package let name: String
    package init(name: String) { self.name = name }
}

package final class Dog: Animal {
    package let name: String
    package init(name: String) { self.name = name }
}

package final class PetOwner: Person {
    package let name: String
    package let pet: any Animal
    package init(name: String, pet: any Animal) {
        self.name = name
        self.pet = pet
    }
}

// Seed 004's circular Parent/Child, mutable for property injection; used from one task at a time.

package protocol ParentProtocol: AnyObject {}
package protocol ChildProtocol: AnyObject {}

package final class Parent: ParentProtocol, @unchecked Sendable {
    package var child: (any ChildProtocol)?
    package init(child: (any ChildProtocol)? = nil) { self.child = child }
}

package final class Child: ChildProtocol, @unchecked Sendable {
    package weak var parent: (any ParentProtocol)?
    package init() {}
}

// Seed 002's client and server.

package protocol Server: AnyObject {
    var client: (any Client)? { get }
}

package protocol Client: AnyObject {
    var server: any Server { get }
}

package final class ServerImp: Server, @unchecked Sendable {
    package weak var client: (any Client)?
    package init() {}
}

package final class ClientImp: Client, @unchecked Sendable {
    package let server: any Server
    package init(server: any Server) { self.server = server }
}

/// Counts how many times something was created, from any thread.
package final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    package init() {}

    package var count: Int { value.load(ordering: .acquiring) }

    @discardableResult
    package func increment() -> Int { value.add(1, ordering: .acquiringAndReleasing).newValue }

    package func decrement() { value.subtract(1, ordering: .acquiringAndReleasing) }
}

/// Holds on to the resolver a factory was given, for tests of resolvers kept past their resolve.
package final class ResolverKeeper: @unchecked Sendable {
    package var resolver: (any Resolver)?
    package init() {}
}

/// A service with an identity, for scope tests.
package final class Service: Sendable {
    package let number: Int
    package init(number: Int = 0) { self.number = number }
}

package struct Failure: Error, CustomStringConvertible {
    package var description: String { "the database is down" }
    package init() {}
}
