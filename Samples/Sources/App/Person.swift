// The person of *Generating traits*, with the traits of App.traits.
import TraitInjection

// sample-begin
struct Person: PetInjected, CatchphraseInjected {
    var injectableIdentifier = InjectableIdentifier()
    var name: String
    var personality = Personality.comical

    var defaultCatchphrase: String {
        switch personality {
        case .comical: CatchphraseInjector.defaultComicalCatchphrase
        case .serious: CatchphraseInjector.defaultSeriousCatchphrase
        }
    }
}
// sample-end
