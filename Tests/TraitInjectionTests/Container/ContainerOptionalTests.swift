import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

final class Analytics: Sendable {}

final class Checkout: Sendable {
    let analytics: Analytics?

    init(analytics: Analytics?) {
        self.analytics = analytics
    }
}

private final class OptionalScreen {
    @Inject var analytics: Analytics?
}

private struct Broken: Error {}

@Suite("Optional dependencies: T? is nil where nothing provides T, and throws everything else")
struct ContainerOptionalTests {
    @Test(
        "testContainerResolvesOptionalToNilWhenWrappedTypeIsNotRegistered, testContainerResolvesOptionalToNilWithWrongName"
    )
    func nilWhereNotRegistered() throws {
        let container = Container()
        #expect(try container.resolve(Analytics?.self) == nil)
        container.register(Analytics.self) { _ in Analytics() }
        #expect(try container.resolve(Analytics?.self) != nil)
        #expect(try container.resolve(Analytics?.self, name: "other") == nil)
        #expect(try container.resolve(Analytics?.self, arguments: 1) == nil)
        container.register(Analytics.self, name: "other") { (_, _: Int) in Analytics() }
        #expect(try container.resolve(Analytics?.self, name: "other") == nil)
        #expect(try container.resolve(Analytics?.self, name: "other", arguments: 1) != nil)
    }

    @Test("A parent's registration is found from its child, and a child's is not from its parent")
    func throughTheParentChain() throws {
        let parent = Container()
        let child = Container(parent: parent)
        child.register(Checkout.self) { r in Checkout(analytics: try r.resolve(Analytics?.self)) }
        #expect(try child.resolve(Checkout.self).analytics == nil)
        parent.register(Analytics.self) { _ in Analytics() }.inScope(.container)
        #expect(try child.resolve(Checkout.self).analytics === (try parent.resolve(Analytics.self)))
        child.register(String.self) { _ in "child only" }
        #expect(try parent.resolve(String?.self) == nil)
    }

    @Test("A registration of T? itself wins over T's, also from a child container")
    func registeredOptionalWins() throws {
        let parent = Container()
        let child = Container(parent: parent)
        child.register(Analytics.self) { _ in Analytics() }
        #expect(try child.resolve(Analytics?.self) != nil)
        parent.register(Analytics?.self) { _ in nil }
        #expect(try child.resolve(Analytics?.self) == nil)
    }

    @Test("A factory that throws still throws through T?")
    func factoryFailureThrows() {
        let container = Container()
        container.register(Analytics.self) { _ in throw Broken() }
        container.register(Checkout.self) { r in Checkout(analytics: try r.resolve(Analytics?.self)) }
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Checkout.self) }
        #expect(error?.kind == .factoryFailed)
        #expect(error?.path.map(\.service) == ["Checkout", "Analytics"])
    }

    @Test("A missing dependency of T still throws through T?, naming it")
    func missingDependencyOfTheWrappedThrows() {
        let container = Container()
        container.register(Checkout.self) { r in Checkout(analytics: try r.resolve(Analytics.self)) }
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Checkout?.self) }
        #expect(error?.kind == .notRegistered)
        #expect(error?.service == "Analytics")
    }

    @Test("A cycle through T? still throws")
    func cycleThrows() {
        let container = Container()
        container.register(Checkout.self) { r in
            _ = try r.resolve(Checkout?.self)
            return Checkout(analytics: nil)
        }
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Checkout.self) }
        #expect(error?.kind == .cycle)
    }

    @Test("@Inject var x: T? is nil where T is not registered, and the instance where it is")
    func injectedOptional() {
        let container = Container()
        Container.withShared(container) {
            #expect(OptionalScreen().analytics == nil)
            container.register(Analytics.self) { _ in Analytics() }
            #expect(OptionalScreen().analytics != nil)
        }
    }

    @Test("An autoregistered initializer's T? parameter is nil where T is not registered")
    func autoregisteredOptional() throws {
        let container = Container()
        container.autoregister(Checkout.self, initializer: Checkout.init(analytics:))
        #expect(try container.resolve(Checkout.self).analytics == nil)
        container.register(Analytics.self) { _ in Analytics() }
        #expect(try container.resolve(Checkout.self).analytics != nil)
    }

    @Test("resolveAsync(T?.self) is nil where T is not registered, and still throws a failure")
    func asyncOptional() async throws {
        let container = Container()
        #expect(try await container.resolveAsync(Analytics?.self) == nil)
        container.register(Analytics.self) { _ async throws in throw Broken() }
        let error = await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Analytics?.self) }
        #expect(error?.kind == .factoryFailed)
    }

    @Test("verify() passes a missing optional dependency")
    func verifyAcceptsMissingOptional() {
        let container = Container()
        container.register(Checkout.self) { r in Checkout(analytics: try r.resolve(Analytics?.self)) }
        #expect(throws: Never.self) { try container.verify() }
    }

    @Test(
        "testContainerDoesNotResolveLazyIfBaseTypeIsNotRegistered, testProviderDoesNotResolveProviderIfBaseTypeIsNotRegistered: notRegistered, with the path"
    )
    func deferredOfUnregisteredThrows() throws {
        let container = Container()
        container.register(Checkout.self) { r in
            _ = try r.resolve(Lazy<Analytics>.self)
            return Checkout(analytics: nil)
        }
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Checkout.self) }
        #expect(error?.kind == .notRegistered)
        #expect(error?.service == "Analytics")
        #expect(error?.path.map(\.service) == ["Checkout", "Lazy<Analytics>"])
        let provider = #expect(throws: ResolutionError.self) { try container.resolve(Provider<Analytics>.self) }
        #expect(provider?.kind == .notRegistered)
        #expect(try container.resolve(Lazy<Analytics>?.self) == nil)
        #expect(try container.resolve(Provider<Analytics>?.self) == nil)
        #expect(try container.resolve(Lazy<Analytics?>.self).value == nil)
        container.register(Analytics.self) { _ in Analytics() }
        #expect(try container.resolve(Lazy<Analytics>?.self)?.value != nil)
    }
}
