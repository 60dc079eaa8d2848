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

// sample-begin
@MainActor
@Observable
final class PetShopModel {
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()
    var title = "Today's pet"
}

// The model's isolation is the conformance's: `final class PetShopModel: PetInjected` does not
// compile ("conformance crosses into main actor-isolated code").
extension PetShopModel: @MainActor PetInjected {}
// sample-end
