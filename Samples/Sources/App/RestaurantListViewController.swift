// *Testing* checks the location of `lister` below: line 7 of this file.
import TraitInjection

/// A screen listing the restaurants its injected lister finds.
final class RestaurantListViewController {
    // The property that the *Testing* article's message test names.
    @Inject var lister: RestaurantLister

    var restaurantCount: Int { lister.restaurants.count }
}

/// The app's restaurant list.
class RestaurantLister {
    var restaurants: [String] { ["Chez Panisse", "Noma"] }
}

/// A lister with `count` made-up restaurants.
final class StubLister: RestaurantLister {
    let count: Int
    init(count: Int) { self.count = count }
    override var restaurants: [String] { (0..<count).map { "Restaurant \($0)" } }
}
