import Synchronization
import Testing
import TraitInjection

@testable import ContainerArticle

/// The *Container* article's session scope (`Sources/ContainerArticle/SessionScope.swift`) behaves
/// as the article says.
@Suite("Container article: a scope of your own")
struct SessionScopeTests {
    /// Another scope of the app's own, which a reset of `.session` must not touch.
    static let device = SharedScope("device")

    final class DeviceInfo: Sendable {}
    final class Draft: Sendable {}

    final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func increment() { count.withLock { $0 += 1 } }
    }

    /// A container with a service in each kind of scope, counting the carts it makes.
    static func container(countingCartsIn made: Counter? = nil) -> Container {
        let container = Container()
        container.register(ShoppingCart.self) { _ in
            made?.increment()
            return ShoppingCart()
        }
        .inScope(.session)
        container.register(ProductCatalog.self) { _ in ProductCatalog() }.inScope(.container)
        container.register(DeviceInfo.self) { _ in DeviceInfo() }.inScope(Scope(device))
        container.register(Draft.self) { _ in Draft() }.inScope(.transient)
        return container
    }

    @Test("Within a session, every resolve gets the same instance")
    func oneInstancePerSession() throws {
        let container = Self.container()
        let cart = try container.resolve(ShoppingCart.self)
        #expect(try container.resolve(ShoppingCart.self) === cart)
        #expect(try container.resolve(Draft.self) !== container.resolve(Draft.self))
        #expect("\(Scope<ShoppingCart>.session)" == "session")
    }

    @Test("Many tasks resolving it first at once make one instance")
    func madeOnceUnderContention() async throws {
        let made = Counter()
        let container = Self.container(countingCartsIn: made)
        let carts = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<16 {
                group.addTask { ObjectIdentifier(try await container.resolveAsync(ShoppingCart.self)) }
            }
            return try await group.reduce(into: Set()) { $0.insert($1) }
        }
        #expect(carts.count == 1)
        #expect(made.value == 1)
    }

    @Test("resetScopedInstances(in: .session) makes a new one; other scopes keep theirs")
    func resetDropsOnlyTheSession() throws {
        let container = Self.container()
        let cart = try container.resolve(ShoppingCart.self)
        let catalog = try container.resolve(ProductCatalog.self)
        let device = try container.resolve(DeviceInfo.self)

        container.resetScopedInstances(in: .session)

        let nextCart = try container.resolve(ShoppingCart.self)
        #expect(nextCart !== cart)
        #expect(try container.resolve(ShoppingCart.self) === nextCart)
        #expect(try container.resolve(ProductCatalog.self) === catalog)
        #expect(try container.resolve(DeviceInfo.self) === device)

        // Every shared scope, the app's own included.
        container.resetScopedInstances()
        #expect(try container.resolve(ShoppingCart.self) !== nextCart)
        #expect(try container.resolve(ProductCatalog.self) !== catalog)
        #expect(try container.resolve(DeviceInfo.self) !== device)
    }
}
