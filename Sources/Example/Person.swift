import TraitInjection

enum PersonalityType {
    case comical
    case serious
}

/// A person: a pet and a catchphrase injected, the catchphrase chosen by
/// personality; and a vet, whose default comes from the container.
struct Person: PetInjected, CatchphraseInjected, VetInjected {
    var injectableIdentifier = InjectableIdentifier()
    var name: String
    let personality: PersonalityType

    init(name: String, personality: PersonalityType) {
        self.name = name
        self.personality = personality
    }

    var defaultCatchphrase: String {
        switch personality {
        case .comical: CatchphraseInjector.defaultComicalCatchphrase
        case .serious: CatchphraseInjector.defaultSeriousCatchphrase
        }
    }
}
