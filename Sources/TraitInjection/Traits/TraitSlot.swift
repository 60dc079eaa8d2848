// Public imports, as in `Locked.swift`: the lock primitive's type appears in this
// `@usableFromInline` class, which the inlinable trait accessors reach.
#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#endif

/// One instance's traits behind their own lock, in a single allocation.
///
/// The entries are the buffer's header and the lock word its one tail element, so the lock has the
/// fixed address a `pthread_mutex_t` or `os_unfair_lock` needs, and creating a slot costs one
/// allocation instead of two (a ``Locked`` keeps its state in a block of its own).
///
/// The owning ``InjectableIdentifier`` holds the only lasting strong reference: the slot, and the
/// instance's values with it, go when the identifier does. User code never runs under the lock:
/// values replaced or removed are handed out of `withLock` and released by the caller.
///
/// Safe to share between threads for the reason ``Locked`` is: the entries are reached only
/// through ``withLock(_:)``, which holds the lock for the whole access, and no pointer to them
/// escapes. (`ManagedBuffer` makes its subclasses' `Sendable` conformance unavailable, so the
/// identifier that holds the slot is the one declared `@unchecked Sendable`.)
@usableFromInline
final class TraitSlot: ManagedBuffer<TraitEntries, LockPrimitive> {
    /// A slot holding `entries`, its lock initialised.
    @usableFromInline
    static func make(_ entries: TraitEntries) -> TraitSlot {
        let slot = unsafeDowncast(create(minimumCapacity: 1) { _ in entries }, to: TraitSlot.self)
        slot.withUnsafeMutablePointerToElements { lock in
            lock.initialize(to: LockPrimitive())
            Locked<Void>.initialize(lock)
        }
        return slot
    }

    deinit {
        withUnsafeMutablePointerToElements { lock in
            Locked<Void>.destroy(lock)
            lock.deinitialize(count: 1)
        }
    }

    /// Runs `body` with exclusive access to the entries and returns its result.
    @inlinable
    func withLock<Result>(_ body: (inout TraitEntries) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { entries, lock in
            Locked<Void>.lock(lock)
            defer { Locked<Void>.unlock(lock) }
            return try body(&entries.pointee)
        }
    }
}
