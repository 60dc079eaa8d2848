// The *Traits* article's hand-written trait with a customisation point, and the types around it.
import TraitInjection

struct Pet: Sendable {
    var name: String
    let species: String
}

enum Personality: Sendable {
    case comical, serious
}

struct Person: PetInjected, CatchphraseInjected {
    var injectableIdentifier = InjectableIdentifier()
    var name: String
    var personality = Personality.comical
}

struct CatchphraseInjector {
    static let catchphrase = InjectorDefault("...")

    static var defaultCatchphrase: String {
        get { catchphrase.value }
        set { catchphrase.value = newValue }
    }
}

enum CatchphraseTrait: TraitKey {
    static var defaultValue: String { CatchphraseInjector.defaultCatchphrase }
}

// sample-begin
protocol CatchphraseInjected: Injected {
    var defaultCatchphrase: String { get }
}

extension CatchphraseInjected {
    var defaultCatchphrase: String { CatchphraseInjector.defaultCatchphrase }

    var catchphrase: String {
        get { trait(CatchphraseTrait.self, orDefaultTo: defaultCatchphrase) }
        set { setTrait(CatchphraseTrait.self, to: newValue) }
    }
}

extension Person {
    var defaultCatchphrase: String {
        personality == .comical ? "'Tis but a scratch!" : "I think, therefore I am"
    }
}
// sample-end
