import Synchronization
import TraitInjection

// Seed 004's types.

protocol Animal: AnyObject, Sendable {
    var name: String { get }
}

protocol Person: Sendable {
    var name: String { get }
}

final class Cat: Animal {
    let name: String
    init(name: String) { self.name = name }
}

final class Dog: Animal {
    let name: String
    init(name: String) { self.name = name }
}

final class PetOwner: Person {
    let name: String
    let pet: any Animal
    init(name: String, pet: any Animal) {
        self.name = name
        self.pet = pet
    }
}

// Seed 004's circular Parent/Child, mutable for property injection; used from one task at a time.

protocol ParentProtocol: AnyObject {}
protocol ChildProtocol: AnyObject {}

final class Parent: ParentProtocol, @unchecked Sendable {
    var child: (any ChildProtocol)?
    init(child: (any ChildProtocol)? = nil) { self.child = child }
}

final class Child: ChildProtocol, @unchecked Sendable {
    weak var parent: (any ParentProtocol)?
}

// Seed 002's client and server.

protocol Server: AnyObject {
    var client: (any Client)? { get }
}

protocol Client: AnyObject {
    var server: any Server { get }
}

final class ServerImp: Server, @unchecked Sendable {
    weak var client: (any Client)?
}

final class ClientImp: Client, @unchecked Sendable {
    let server: any Server
    init(server: any Server) { self.server = server }
}

/// Counts how many times something was created, from any thread.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    var count: Int { value.load(ordering: .acquiring) }

    @discardableResult
    func increment() -> Int { value.add(1, ordering: .acquiringAndReleasing).newValue }

    func decrement() { value.subtract(1, ordering: .acquiringAndReleasing) }
}

/// Holds on to the resolver a factory was given, for tests of resolvers kept past their resolve.
final class ResolverKeeper: @unchecked Sendable {
    var resolver: (any Resolver)?
}

/// A service with an identity, for scope tests.
final class Service: Sendable {
    let number: Int
    init(number: Int = 0) { self.number = number }
}

struct Failure: Error, CustomStringConvertible {
    var description: String { "the database is down" }
}
