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

// A trait written by hand through the string-named API, on an object: it takes the object.
// sample-begin
protocol NicknameInjected: Injected {}

extension NicknameInjected where Self: AnyObject {
    var nickname: String {
        get { Injectable.get(traitName: "nickname", forObject: self, orDefaultTo: "") }
        nonmutating set { Injectable.set(traitName: "nickname", forObject: self, to: newValue) }
    }
}
// sample-end

/// A shop whose only trait is string-named.
@Observable
final class Kennel: NicknameInjected {
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()
}
