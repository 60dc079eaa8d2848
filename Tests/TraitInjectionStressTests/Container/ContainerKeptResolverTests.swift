import Dispatch
import TestFixtures
import Testing
import TraitInjection

/// Item 10 of the container's contract: a resolver kept past its factory never resolves from
/// another container, never sees another resolve's graph, and is safe to touch from any thread.
@Suite("Container: a resolver kept past its factory expires")
struct ContainerKeptResolverTests {
    /// Expects `body` to throw `.resolverExpired` naming `service`.
    func expectExpired(_ service: String, _ body: () throws(ResolutionError) -> Void) {
        do {
            try body()
            Issue.record("a kept resolver resolved after its resolve had ended")
        } catch {
            #expect(error.kind == .resolverExpired)
            #expect(error.service == service)
            #expect(error.description.contains("Keep the container and resolve from it instead"))
        }
    }

    @Test("A kept resolver throws after its resolve, however the thread's later resolves reuse its state")
    func keptStrongly() throws {
        let keeper = ResolverKeeper()
        let container = Container()
        container.register(Int.self) { _ in 7 }
        container.register(String.self) { resolver in
            keeper.resolver = resolver
            return "kept"
        }
        _ = try container.resolve(String.self)
        _ = try container.resolve(Int.self)
        expectExpired("Int") { () throws(ResolutionError) in _ = try keeper.resolver?.resolve(Int.self) }
    }

    @Test("A kept resolver does not keep its container alive, and is still safe to use after it is gone")
    func outlivesContainer() throws {
        let keeper = ResolverKeeper()
        weak var weakContainer: Container?
        do {
            let container = Container()
            weakContainer = container
            container.register(Int.self) { _ in 7 }
            container.register(String.self) { resolver in
                keeper.resolver = resolver
                return "kept"
            }
            _ = try container.resolve(String.self)
        }
        #expect(weakContainer == nil)
        expectExpired("Int") { () throws(ResolutionError) in _ = try keeper.resolver?.resolve(Int.self) }
    }

    @Test("Used during a later resolve of another container, a kept resolver resolves nothing from it")
    func neverAnotherContainer() throws {
        let keeper = ResolverKeeper()
        let first = Container()
        first.register(Int.self) { _ in 7 }
        first.register(String.self) { resolver in
            keeper.resolver = resolver
            return "kept"
        }
        let second = Container()
        second.register(Int.self) { _ in 11 }
        second.register(Service.self) { r in
            // The graph of this resolve must not leak to the kept resolver, nor its container.
            let graphService: Service = try r.resolve(Service.self, name: "graph")
            var kept: Int?
            do throws(ResolutionError) {
                kept = try keeper.resolver?.resolve(Int.self)
            } catch {
                #expect(error.kind == .resolverExpired)
            }
            #expect(kept == nil)
            return graphService
        }
        second.register(Service.self, name: "graph") { _ in Service(number: 5) }
        _ = try first.resolve(String.self)
        #expect(try second.resolve(Service.self).number == 5)
    }

    @Test("A resolver kept from a nested top-level resolve expires; the thread's resolves go on working")
    func keptFromNestedResolve() throws {
        let keeper = ResolverKeeper()
        let container = Container()
        let other = Container()
        other.register(Int.self) { _ in 11 }
        container.register(Int.self) { _ in 7 }
        container.register(Service.self) { resolver in
            keeper.resolver = resolver
            return Service(number: 1)
        }
        container.register(String.self) { r in
            "\(try container.resolve(Service.self).number + r.resolve(Int.self))"
        }
        #expect(try container.resolve(String.self) == "8")
        #expect(try other.resolve(Int.self) == 11)
        #expect(try container.resolve(String.self) == "8")
        expectExpired("Int") { () throws(ResolutionError) in _ = try keeper.resolver?.resolve(Int.self) }
    }

    @Test("Stress: a resolver handed to another thread while its resolve runs is refused there, race-free")
    func otherThreadStress() throws {
        let container = Container()
        container.register(Int.self) { _ in 7 }
        let results = Counter()
        let keeper = ResolverKeeper()
        container.register(String.self) { resolver in
            // Another thread uses the resolver while this factory still runs.
            keeper.resolver = resolver
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                do throws(ResolutionError) {
                    _ = try keeper.resolver?.resolve(Int.self)
                } catch {
                    if error.kind == .resolverExpired { results.increment() }
                }
            }
            group.wait()
            return "\(try resolver.resolve(Int.self))"
        }
        for _ in 0..<200 {
            #expect(try container.resolve(String.self) == "7")
        }
        #expect(results.count == 200)
    }
}
