import TestFixtures
import Testing
import TraitInjection

/// A registration takes effect when `register` returns, and each refinement replaces it at once:
/// nothing depends on when a `Registration` value is let go.
@Suite("Container: registrations take effect when they are made")
struct ContainerRegistrationTests {
    final class Database: Sendable {
        let number: Int
        init(number: Int) { self.number = number }
    }

    @Test("A registration kept in a variable and refined later is resolved as refined, as Swinject users write it")
    func keptInAVariable() throws {
        let container = Container()
        let made = Counter()
        let registration = container.register(Database.self) { _ in Database(number: made.increment()) }
        registration.inScope(.container)
        let database = try container.resolve(Database.self)
        #expect(try container.resolve(Database.self) === database)
        #expect(made.count == 1)
        withExtendedLifetime(registration) {}
    }

    @Test("Before its refinement, the registration is already there, in its first form")
    func registeredBeforeRefined() throws {
        let container = Container()
        let registration = container.register(Database.self) { _ in Database(number: 1) }
        // The default scope, `.graph`: a new instance per resolve.
        #expect(try container.resolve(Database.self) !== container.resolve(Database.self))
        registration.inScope(.container)
        #expect(try container.resolve(Database.self) === container.resolve(Database.self))
    }

    @Test("Refining a registration replaced since changes nothing: the newer one stays")
    func replacedRegistrationIsNotRefined() throws {
        let container = Container()
        let old = container.register(Database.self) { _ in Database(number: 1) }
        container.register(Database.self) { _ in Database(number: 2) }
        old.inScope(.container)
        let completions = Counter()
        old.initCompleted { _, _ in completions.increment() }
        let database = try container.resolve(Database.self)
        #expect(database.number == 2)
        #expect(try container.resolve(Database.self) !== database)  // Still `.graph`.
        #expect(completions.count == 0)
    }

    @Test("A refinement lets go of what the registration kept before it: the next resolve makes a new one")
    func refinementDropsTheKeptInstance() throws {
        let container = Container()
        let made = Counter()
        let registration = container.register(Database.self) { _ in Database(number: made.increment()) }
            .inScope(.container)
        weak let first = try container.resolve(Database.self)
        #expect(first != nil)
        let completed = Counter()
        registration.initCompleted { _, _ in completed.increment() }
        #expect(first == nil)
        #expect(try container.resolve(Database.self).number == 2)
        #expect(completed.count == 1)
    }

    @Test("A forwarding added by a later refinement reaches the registration at once")
    func forwardingAddedLater() throws {
        let container = Container()
        let registration = container.register(Database.self) { _ in Database(number: 7) }.inScope(.container)
        registration.implements(AnyObject.self) { $0 }
        let database = try container.resolve(Database.self)
        #expect(try container.resolve(AnyObject.self) === database)
    }

    final class Pair: Sendable {
        let number: Int
        let word: String
        init(_ number: Int, _ word: String) {
            self.number = number
            self.word = word
        }
    }

    @Test(
        "One argument of tuple type and two arguments are different registrations, though Swift spells both (Int, String)"
    )
    func tupleArgumentIsNotTwoArguments() throws {
        let container = Container()
        container.register(Pair.self) { (_, pair: (Int, String)) in Pair(pair.0, pair.1) }
        #expect(!container.hasRegistration(Pair.self, arguments: Int.self, String.self))
        let error = #expect(throws: ResolutionError.self) {
            try container.resolve(Pair.self, arguments: 42, "forty-two")
        }
        #expect(error?.kind == .notRegistered)
        #expect(try container.resolve(Pair.self, arguments: (7, "seven")).word == "seven")
        container.register(Pair.self) { (_, number: Int, word: String) in Pair(number, word) }
        #expect(try container.resolve(Pair.self, arguments: 42, "forty-two").number == 42)
        #expect(try container.resolve(Pair.self, arguments: (7, "seven")).number == 7)
    }
}
