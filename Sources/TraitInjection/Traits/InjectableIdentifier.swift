import Synchronization

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
/// Identifiers are compared by identity. The store reaches an instance's traits only through the
/// identifier's own slot, never by address or hash, so a new identifier allocated at a dead one's
/// address starts with no traits and can never see the dead one's.
///
/// An identifier is safe to share between threads: its traits are only ever reached under their
/// own lock.
// `@unchecked Sendable` only because its one stored property, a `TraitSlot`, cannot declare itself
// `Sendable` (`ManagedBuffer` makes that unavailable): the slot is a `let`, and its entries are
// reached only under its lock.
public final class InjectableIdentifier: @unchecked Sendable {
    /// This instance's traits, behind their own lock: made with the identifier and owned by it
    /// alone, so they go when it does.
    ///
    /// Made up front rather than on the first trait access, so that it can be a `let`: reading a
    /// trait then borrows it from the identifier the caller holds, with no retain, no atomic
    /// publication and no race between two threads making it. An instance that never touches a
    /// trait pays one small allocation for it (about 60 bytes with its lock on Linux).
    @usableFromInline
    let slot: TraitSlot

    /// The last number given to an identifier's ``description``. Each identifier takes its own
    /// the first time it is asked for, and keeps it in its slot, so that creating an identifier
    /// touches no shared counter.
    private static let numbers = Atomic<UInt64>(0)

    /// Creates an identifier with no traits.
    public init() {
        slot = TraitSlot.make(TraitEntries())
    }

    /// Creates an identifier whose traits are `entries`.
    init(entries: TraitEntries) {
        slot = TraitSlot.make(entries)
    }

    deinit {
        TraitStore.release(slot)
        // `slot` is released after this, with no lock held, and with it this instance's values.
    }
}

extension InjectableIdentifier: CustomStringConvertible {
    /// `InjectableIdentifier(#7)`: a number that no other identifier, live or dead, ever shows,
    /// given the first time it is asked for.
    public var description: String {
        "InjectableIdentifier(#\(describedNumber))"
    }

    private var describedNumber: UInt64 {
        slot.number { Self.numbers.wrappingAdd(1, ordering: .relaxed).newValue }
    }
}
