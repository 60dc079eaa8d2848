// The *Container* article's scope of its own, and the services it keeps.

import TraitInjection

// sample-begin
extension SharedScope {
    /// The signed-in user's services: made once per session, dropped on logout.
    static let session = SharedScope("session")
}

extension Scope where Service: Sendable {
    static var session: Scope { Scope(.session) }
}
// sample-end

/// What the signed-in user is buying: one per session.
final class ShoppingCart: Sendable {}

/// The products on sale: the same for every user.
final class ProductCatalog: Sendable {}
