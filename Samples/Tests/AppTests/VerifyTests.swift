// The Container article's test of a whole container: `verify()` is one import away.
// sample-begin
import Testing
import TraitInjection
import TraitInjectionDiagnostics

@Test func everyRegistrationResolves() throws {
    try AppContainer.make().verify()
}
// sample-end

/// The app's container, as an app would make it.
enum AppContainer {
    static func make() -> Container {
        let container = Container()
        container.register(Kitchen.self) { _ in Kitchen() }
        container.register(Menu.self) { r in Menu(kitchen: try r.resolve(Kitchen.self)) }
        return container
    }
}

final class Kitchen: Sendable {}

final class Menu: Sendable {
    let kitchen: Kitchen
    init(kitchen: Kitchen) { self.kitchen = kitchen }
}

@Test func aMissingRegistrationFailsTheCheck() {
    let container = Container()
    container.register(Menu.self) { r in Menu(kitchen: try r.resolve(Kitchen.self)) }
    #expect(throws: VerificationReport.self) { try container.verify() }
}
