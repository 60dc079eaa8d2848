/// The key under which the trait store's registry files one instance's slot of traits.
///
/// It holds its ``InjectableIdentifier`` weakly, so the store never keeps an instance's identity
/// alive, and it is equal and hashed by the identifier's serial number: exact (serials are never
/// reused, unlike addresses) and cheap to probe with, since a lookup key needs no weak reference.
struct TraitIdentifier: Hashable {
    let serial: UInt64
    private(set) weak var injectableIdentifier: InjectableIdentifier?

    /// A key for storing, which remembers its identifier weakly.
    init(_ identifier: InjectableIdentifier) {
        serial = identifier.serial
        injectableIdentifier = identifier
    }

    /// A key for looking up only.
    init(probing serial: UInt64) {
        self.serial = serial
        injectableIdentifier = nil
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.serial == rhs.serial }

    func hash(into hasher: inout Hasher) { hasher.combine(serial) }
}
