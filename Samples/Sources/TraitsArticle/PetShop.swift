// The *Traits* article's observed class: its traits take part in Observation.
import Observation
import TraitInjection

// sample-begin
@Observable
final class PetShop: PetInjected {
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()
    var name = "Paws"
}
// sample-end
