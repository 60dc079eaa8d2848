import TestFixtures
import Testing
import TraitInjection

@Suite("@WeakInject: weakly held injected properties")
struct WeakInjectTests {
    @Test("The property holds its object weakly and reads nil once it is released")
    func holdsWeakly() throws {
        let container = Container()
        container.register(Counter.self) { _ in Counter() }.inScope(.weak)
        var counter: Counter? = try container.resolve(Counter.self)
        let observer = Observer()
        Container.withShared(container) {
            #expect(observer.counter === counter)
        }
        counter = nil
        #expect(observer.counter == nil)
    }

    @Test("A released object is not resolved again")
    func notResolvedAgain() {
        let container = Container()
        let creations = Counter()
        container.register(Counter.self) { _ in
            creations.increment()
            return Counter()
        }
        let observer = Observer()
        Container.withShared(container) {
            _ = observer.counter  // Resolved, and released at once: nobody else holds it.
            #expect(observer.counter == nil)
            #expect(creations.count == 1)
        }
    }

    @Test("Setting the property replaces the reference, weakly")
    func settable() {
        var observer = Observer()
        var counter: Counter? = Counter()
        observer.counter = counter
        #expect(observer.counter === counter)
        counter = nil
        #expect(observer.counter == nil)
        observer.counter = nil
        #expect(observer.counter == nil)
    }

    @Test("A value cannot be held weakly: the error says so, and where")
    func valueIsAnError() throws {
        let container = Container()
        container.register(Int.self) { _ in 3 }
        let properties = WeakNumber()
        let error = try #require(throws: InjectionError.self) {
            try Container.withShared(container) { try properties.$number.resolve() }
        }
        #expect(error.resolutionError == nil)
        #expect(error.description.contains("resolved a Int, which is not a class instance"))
    }

    @Test("An unresolvable weak property reports where it is declared")
    func unresolvableReportsItsLocation() throws {
        let properties = Unresolvable()
        let error = try #require(throws: InjectionError.self) {
            try Container.withShared(Container()) { try properties.$weakMissing.resolve() }
        }
        #expect(error.location == "PropertyWrapperFixtures.swift:\(Unresolvable.weakMissingLine)")
        #expect(error.description.hasPrefix("@WeakInject property at PropertyWrapperFixtures.swift:"))
        #expect(error.description.contains("Counter is not registered"))
    }
}
