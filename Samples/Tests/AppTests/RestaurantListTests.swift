// sample-begin
@testable import App
import Testing
import TraitInjection
import TraitInjectionTesting

// sample-begin
@Test(.container { $0.register(RestaurantLister.self) { _ in StubLister(count: 3) } })
func listsTheStubbedRestaurants() {
    #expect(RestaurantListViewController().restaurantCount == 3)
}
// sample-end
// sample-end
