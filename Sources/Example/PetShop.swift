import Observation
import TraitInjection

/// A pet shop whose pet SwiftUI could watch: an `@Observable` class is observed through its traits
/// as through its stored properties.
@Observable
final class PetShop: PetInjected {
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()
    var name = "Paws"
}
