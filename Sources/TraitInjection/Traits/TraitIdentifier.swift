/// The key under which the trait store's registry files one instance's slot of traits.
///
/// It holds its ``InjectableIdentifier`` weakly, through the identifier's ``LifetimeToken``, so
/// the store never keeps an instance's identity alive and can tell when it is gone; and it is equal
/// and hashed by the identifier's serial number: exact (serials are never reused, unlike
/// addresses) and cheap to probe with, since a lookup key needs no weak reference.
struct TraitIdentifier: Hashable {
    let serial: UInt64
    private weak var lifetime: LifetimeToken?

    /// A key for storing, which watches the identifier's lifetime weakly.
    init(serial: UInt64, lifetime: LifetimeToken) {
        self.serial = serial
        self.lifetime = lifetime
    }

    /// A key for looking up only.
    init(probing serial: UInt64) {
        self.serial = serial
        lifetime = nil
    }

    /// Whether the identifier this key was stored for has gone. Safe under a lock: should the
    /// strong reference this load yields be the token's last, its `deinit` does nothing.
    var isDead: Bool { lifetime == nil }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.serial == rhs.serial }

    func hash(into hasher: inout Hasher) { hasher.combine(serial) }
}
