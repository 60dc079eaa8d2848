import TraitInjection

final class Greeting: Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

/// A consumer whose greeting is injected from the shared container.
struct Greeter: Sendable {
    @Inject var greeting: Greeting
}

/// An injector default that parallel tests override, each its own way.
struct SalutationInjector {
    static let salutation = InjectorDefault("Hello")
}

enum SalutationTrait: TraitKey {
    static var defaultValue: String { SalutationInjector.salutation.value }
}

/// A type with a trait whose default comes from `SalutationInjector`.
struct Letter: Injected {
    var injectableIdentifier = InjectableIdentifier()

    var salutation: String { self[trait: SalutationTrait.self] }
}

/// A short pause, so that tests running in parallel interleave.
func pause() async throws {
    try await Task.sleep(for: .milliseconds(2))
}
