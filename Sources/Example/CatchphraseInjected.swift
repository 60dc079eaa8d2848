import TraitInjection

/// Holds the catchphrases new ``CatchphraseInjected`` instances start with.
enum CatchphraseInjector {
    static let catchphrase = InjectorDefault("...")
    static let comicalCatchphrase = InjectorDefault("'Tis but a scratch!")
    static let seriousCatchphrase = InjectorDefault("I think, therefore I am")

    /// The catchphrase of a type that does not choose its own.
    static var defaultCatchphrase: String {
        get { catchphrase.value }
        set { catchphrase.value = newValue }
    }

    static var defaultComicalCatchphrase: String {
        get { comicalCatchphrase.value }
        set { comicalCatchphrase.value = newValue }
    }

    static var defaultSeriousCatchphrase: String {
        get { seriousCatchphrase.value }
        set { seriousCatchphrase.value = newValue }
    }
}

/// The key under which a ``CatchphraseInjected`` instance's catchphrase is stored.
enum CatchphraseTrait: TraitKey {
    static var defaultValue: String { CatchphraseInjector.defaultCatchphrase }
}

/// Adopt to gain a persistent, per-instance, mutable `catchphrase`.
protocol CatchphraseInjected: Injected {
    /// The catchphrase this instance starts with. Implement it to choose one from the instance's
    /// own state; by default it is ``CatchphraseInjector/defaultCatchphrase``.
    var defaultCatchphrase: String { get }
}

extension CatchphraseInjected {
    var defaultCatchphrase: String { CatchphraseInjector.defaultCatchphrase }

    /// This instance's catchphrase; ``defaultCatchphrase`` until set.
    var catchphrase: String {
        get { trait(CatchphraseTrait.self, orDefaultTo: defaultCatchphrase) }
        set { setTrait(CatchphraseTrait.self, to: newValue) }
    }
}
