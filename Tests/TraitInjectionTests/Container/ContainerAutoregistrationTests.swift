import TestFixtures
import Testing
import TraitInjection

@Suite("Container: autoregistration from an initializer")
struct ContainerAutoregistrationTests {
    final class Clock: Sendable {
        init() {}
    }

    final class Feed: Sendable {
        let service: Service
        let pet: any Animal
        let clock: Clock
        init(service: Service, pet: any Animal, clock: Clock) {
            self.service = service
            self.pet = pet
            self.clock = clock
        }
    }

    final class Pair: Sendable {
        let first: Clock
        let second: Clock
        init(first: Clock, second: Clock) {
            self.first = first
            self.second = second
        }
    }

    /// More parameters than Swinject's generated overloads take (20).
    struct Wide: Sendable {
        let sum: Int
        // swift-format-ignore
        init(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int, _ f: Int, _ g: Int, _ h: Int, _ i: Int, _ j: Int, _ k: Int, _ l: Int, _ m: Int, _ n: Int, _ o: Int, _ p: Int, _ q: Int, _ r: Int, _ s: Int, _ t: Int, _ u: Int, _ v: Int, _ w: Int, _ x: Int, _ y: Int) {
            sum = [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y].reduce(0, +)
        }
    }

    @Test("Each parameter is resolved from the container, by its type")
    func parametersResolved() throws {
        let container = Container()
        container.register(Service.self) { _ in Service(number: 7) }
        container.register((any Animal).self) { _ in Cat(name: "Mimi") }
        container.autoregister(Clock.self, initializer: Clock.init)
        container.autoregister(Feed.self, initializer: Feed.init)
        let feed = try container.resolve(Feed.self)
        #expect(feed.service.number == 7)
        #expect((feed.pet as? Cat)?.name == "Mimi")
    }

    @Test("Any arity: 25 parameters")
    func wide() throws {
        let container = Container()
        container.register(Int.self) { _ in 2 }
        container.autoregister(Wide.self, initializer: Wide.init)
        #expect(try container.resolve(Wide.self).sum == 50)
    }

    @Test("Parameters share the graph, and the registration takes scopes and names")
    func graphAndScopes() throws {
        let container = Container()
        container.autoregister(Clock.self, initializer: Clock.init)
        container.autoregister(Pair.self, name: "pair", initializer: Pair.init).inScope(.container)
        let pair = try container.resolve(Pair.self, name: "pair")
        #expect(pair.first === pair.second)
        #expect(try container.resolve(Pair.self, name: "pair") === pair)
    }

    @Test("A parameter type that is not registered is named, with the registration that needed it")
    func missingParameter() throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.autoregister(Feed.self, initializer: Feed.init)
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Feed.self) }
        #expect(error?.kind == .notRegistered)
        #expect(error?.service == "Animal")
        #expect(error?.path.map(\.service) == ["Feed"])
        #expect(error?.description.contains("needed by Feed (ContainerAutoregistrationTests.swift:") == true)
    }

    @Test("register with a one-parameter closure is a factory, as before")
    func trailingClosureIsAFactory() throws {
        let container = Container()
        container.register(Clock.self) { _ in Clock() }
        container.register(Pair.self) { r in Pair(first: try r.resolve(Clock.self), second: Clock()) }
        let pair = try container.resolve(Pair.self)
        #expect(pair.first !== pair.second)
    }
}
