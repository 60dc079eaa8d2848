// Public import: `slot` is read by the inlinable trait accessors.
public import Synchronization

/// The identity under which the trait store keeps one instance's injected traits.
///
/// Every ``Injected`` type stores one of these, usually initialised inline:
///
/// ```swift
/// struct Person: PetInjected {
///     var injectableIdentifier = InjectableIdentifier()
///     var name: String
/// }
/// ```
///
/// Copies of a struct share their identifier until one of them sets a trait; the setter then gives
/// that copy a fresh identifier holding a copy of all its traits (copy-on-write), so copies never
/// see each other's later writes. References to one class instance share one identifier.
///
/// When the last holder of an identifier goes away, the store releases every trait value it kept
/// for it at once, so ``Injectable/storedTraitCount`` drops and the values are deinitialised.
///
/// Identifiers are compared by identity. Each carries a serial number that is never reused, so a
/// new identifier allocated at a dead one's address can never see the dead one's traits.
public final class InjectableIdentifier: Sendable {
    private static let serials = Atomic<UInt64>(0)

    /// The never-reused number the store files this identifier's traits under.
    @usableFromInline
    let serial: UInt64

    /// This instance's traits, once it has any: set once, then read without the store's lock.
    /// The store's registry holds the same slot under a weak ``TraitIdentifier``.
    @usableFromInline
    let slot = AtomicLazyReference<TraitSlot>()

    /// This instance's slot, if it has stored a trait.
    @inlinable
    var storedSlot: TraitSlot? { slot.load() }

    /// Creates an identifier with no traits.
    public init() {
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).newValue
    }

    deinit {
        if let slot = slot.load() {
            TraitStore.unregister(serial: serial, slot: slot)
        }
    }
}

extension InjectableIdentifier: CustomStringConvertible {
    public var description: String { "InjectableIdentifier(#\(serial))" }
}
