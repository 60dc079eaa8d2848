// The types the overview's samples use.

struct Pet: Sendable {
    var name: String
    let species: String
}

protocol Animal: Sendable {}
struct Cat: Animal { let name: String }

final class RestaurantLister {}
