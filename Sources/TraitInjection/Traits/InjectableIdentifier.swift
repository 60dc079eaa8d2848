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

    /// This instance's traits, once it has any: the address of a +1 reference to a ``TraitSlot``,
    /// set once and then read without any lock. The store's registry holds the same slot under a
    /// weak ``TraitIdentifier``. (An atomic address rather than `AtomicLazyReference`, whose
    /// `load` is not inlinable and costs a generic metadata lookup on every read.)
    @usableFromInline
    let slotAddress = Atomic<UInt>(0)

    /// The address of a +1 reference to this instance's ``LifetimeToken``, created with its slot:
    /// what the registry's ``TraitIdentifier`` references weakly.
    private let tokenAddress = Atomic<UInt>(0)

    /// This instance's slot, if it has stored a trait.
    @inlinable
    var storedSlot: TraitSlot? {
        guard let pointer = UnsafeRawPointer(bitPattern: slotAddress.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<TraitSlot>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Installs `slot` unless another thread installed one first.
    ///
    /// - Returns: The installed slot, and the lifetime token to register it under if this call
    ///   installed it (`nil` if another thread did).
    func installSlot(_ slot: TraitSlot) -> (slot: TraitSlot, token: LifetimeToken?) {
        let retained = Unmanaged.passRetained(slot)
        let (exchanged, installed) = slotAddress.compareExchange(
            expected: 0,
            desired: UInt(bitPattern: retained.toOpaque()),
            ordering: .acquiringAndReleasing
        )
        guard exchanged else {
            retained.release()
            let winner = Unmanaged<TraitSlot>.fromOpaque(UnsafeRawPointer(bitPattern: installed)!)
            return (winner.takeUnretainedValue(), nil)
        }
        let token = LifetimeToken()
        tokenAddress.store(UInt(bitPattern: Unmanaged.passRetained(token).toOpaque()), ordering: .releasing)
        return (slot, token)
    }

    /// Creates an identifier with no traits.
    public init() {
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).newValue
    }

    deinit {
        if let pointer = UnsafeRawPointer(bitPattern: tokenAddress.load(ordering: .acquiring)) {
            Unmanaged<LifetimeToken>.fromOpaque(pointer).release()
        }
        if let pointer = UnsafeRawPointer(bitPattern: slotAddress.load(ordering: .acquiring)) {
            let slot = Unmanaged<TraitSlot>.fromOpaque(pointer).takeRetainedValue()
            TraitStore.unregister(serial: serial, slot: slot)
            // `slot` is released on return, with no lock held, and with it this instance's values.
        }
    }
}

extension InjectableIdentifier: CustomStringConvertible {
    public var description: String { "InjectableIdentifier(#\(serial))" }
}

/// An object that lives exactly as long as the ``InjectableIdentifier`` that owns it, for the
/// registry to reference weakly.
///
/// A weak reference to the identifier itself would move its reference count to a side table,
/// making every copy of every struct carrying it pay the slow retain and release path (measured:
/// a read through an array element went from about 35 ns to about 90 ns). Only this token, which
/// nothing else retains, pays that.
final class LifetimeToken: Sendable {}
