import Testing
import TraitInjection
import TraitInjectionDiagnostics

extension SharedScope {
    /// A session's services: kept until the app resets the scope on sign-out.
    fileprivate static let session = SharedScope("session")
    /// A screen's services: shared while the screen holds them.
    fileprivate static let screen = SharedScope("screen", holdsWeakly: true)
}

extension Scope where Service: Sendable {
    fileprivate static var session: Scope { Scope(.session) }
    fileprivate static var screen: Scope { Scope(.screen) }
}

/// A scope an app defines (`SharedScope`), as the `Scope` documentation shows one: shared until
/// the app resets it, reset apart from the others, and checked by `verify()` like the built-in ones.
@Suite("Container: a scope of the app's own")
struct ContainerAppScopeTests {
    final class Cart: Sendable {}
    final class Database: Sendable {}
    final class Screen: Sendable {}

    final class Checkout: Sendable {
        let cart: Cart
        let database: Database
        init(cart: Cart, database: Database) { (self.cart, self.database) = (cart, database) }
    }

    /// A session's cart, a `.container` database, and a checkout over both in `scope`.
    static func checkoutContainer(checkoutIn scope: Scope<Checkout>) -> Container {
        let container = Container()
        container.register(Cart.self) { _ in Cart() }.inScope(.session)
        container.register(Database.self) { _ in Database() }.inScope(.container)
        container.register(Checkout.self) { r in
            Checkout(cart: try r.resolve(Cart.self), database: try r.resolve(Database.self))
        }
        .inScope(scope)
        return container
    }

    /// The lifetime problems `verify()` reports, or none if it passes.
    static func lifetimeProblems(_ container: Container) -> [LifetimeProblem] {
        do {
            try container.verify()
            return []
        } catch {
            return error.lifetimeProblems
        }
    }

    @Test("One instance until the app resets its scope; that reset drops the scope's instances only")
    func sharedUntilReset() throws {
        let container = Container()
        container.register(Cart.self) { _ in Cart() }.inScope(.session)
        container.register(Database.self) { _ in Database() }.inScope(.container)
        let cart = try container.resolve(Cart.self)
        let database = try container.resolve(Database.self)
        #expect(try container.resolve(Cart.self) === cart)
        container.resetScopedInstances(in: .session)
        let newCart = try container.resolve(Cart.self)
        #expect(newCart !== cart)
        #expect(try container.resolve(Database.self) === database)
        // A reset of another scope, and of `.container`, leaves the session's instance.
        container.resetScopedInstances(in: .screen)
        container.resetScopedInstances(in: .container)
        #expect(try container.resolve(Cart.self) === newCart)
        #expect(try container.resolve(Database.self) !== database)
        // Every scope at once.
        container.resetScopedInstances()
        #expect(try container.resolve(Cart.self) !== newCart)
    }

    @Test("A weak scope of the app's own keeps an instance while something else holds it")
    func weakAppScope() throws {
        let container = Container()
        container.register(Screen.self) { _ in Screen() }.inScope(.screen)
        var screen: Screen? = try container.resolve(Screen.self)
        weak let released = screen
        #expect(try container.resolve(Screen.self) === screen)
        screen = nil
        #expect(released == nil)
        let again = try container.resolve(Screen.self)
        #expect(try container.resolve(Screen.self) === again)
    }

    @Test("verify() reports a .container singleton that keeps an instance of the app's scope")
    func singletonKeepsAppScoped() throws {
        let container = Self.checkoutContainer(checkoutIn: .container)
        let problems = Self.lifetimeProblems(container)
        #expect(problems.map(\.rule) == [.singletonKeepsAppScoped])
        let problem = try #require(problems.first)
        #expect(problem.holder.service.hasSuffix("Checkout") && problem.dependency.service.hasSuffix("Cart"))
        #expect(problem.description.contains("in the `session` scope"))
        #expect(problem.description.contains("`Provider<"))
        let graph = container.dependencyGraph()
        #expect(graph.lifetimeEdges.map(\.problem.rule) == [.singletonKeepsAppScoped])
        #expect(graph.mermaid.contains("-. keeps .session .->"))
        // The resolve itself works: only verify() tells, and after a reset the singleton still
        // holds the old cart.
        let checkout = try container.resolve(Checkout.self)
        container.resetScopedInstances(in: .session)
        #expect(try container.resolve(Cart.self) !== checkout.cart)
        #expect(try container.resolve(Checkout.self).cart === checkout.cart)
    }

    @Test("Within the app's scope, or kept by a weak scope of its own, it is no problem")
    func sameScopeIsNoProblem() throws {
        let container = Self.checkoutContainer(checkoutIn: .session)
        try container.verify()
        // A `.container` singleton keeping an instance of a weak scope of the app's is the
        // `.weak` rule.
        final class Holder: Sendable {
            let screen: Screen
            init(screen: Screen) { self.screen = screen }
        }
        container.register(Screen.self) { _ in Screen() }.inScope(.screen)
        container.register(Holder.self) { r in Holder(screen: try r.resolve(Screen.self)) }.inScope(.container)
        let problems = Self.lifetimeProblems(container)
        #expect(problems.map(\.rule) == [.singletonKeepsWeak])
        #expect(problems.first?.description.contains("`.screen` (held weakly)") == true)
    }
}
