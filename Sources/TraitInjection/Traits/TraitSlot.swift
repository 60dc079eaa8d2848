/// One instance's traits behind their own lock, in a single allocation.
///
/// The entries, with the observation state (which holds the number the identifier's description
/// shows), are the buffer's header and the lock word its one tail element, so the lock has the
/// fixed address a `pthread_mutex_t` or `os_unfair_lock` needs, and creating a slot costs one
/// allocation instead of two (a ``Locked`` wraps a buffer of its own). The header is 16 bytes:
/// more moves the slot to the next allocation size (see ``TraitObservers/numbered(_:_:)``).
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
final class TraitSlot: ManagedBuffer<TraitSlot.Header, LockPrimitive> {
    @usableFromInline
    struct Header {
        @usableFromInline var entries: TraitEntries
        /// Whether its object takes part in Observation, and the number
        /// ``InjectableIdentifier/description`` shows once it is asked for (``TraitObservers``).
        @usableFromInline var observers = TraitObservers.unknown

        init(entries: TraitEntries) { self.entries = entries }
    }

    /// A slot holding `entries`, its lock initialised.
    @usableFromInline
    static func make(_ entries: TraitEntries) -> TraitSlot {
        let slot = unsafeDowncast(create(minimumCapacity: 1) { _ in Header(entries: entries) }, to: TraitSlot.self)
        slot.withUnsafeMutablePointerToElements { Platform.initialize($0) }
        return slot
    }

    deinit {
        withUnsafeMutablePointerToElements { Platform.destroy($0) }
    }

    /// Runs `body` with exclusive access to the entries and returns its result.
    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout TraitEntries) throws -> Result) rethrows -> Result {
        try withLockedHeader { try body(&$0.entries) }
    }

    /// The number the owning identifier's description shows: `next()` the first time, under the
    /// lock, and the same number after that. (Kept here rather than in the identifier, where an
    /// 8-byte field moved it to a larger allocation size and made two threads creating and
    /// dropping instances 1.2× one thread instead of 1.6×.)
    func number(orAssign next: () -> UInt64) -> UInt64 {
        withLockedHeader { header in
            if case .numbered(let number, _) = header.observers { return number }
            let number = next()
            header.observers = .numbered(number, header.observers)
            return number
        }
    }

    /// Runs `body` with exclusive access to the header. Always inlined: called with a generic
    /// result where a read's value type is not known (the string-named API's first read), it
    /// would otherwise cost a lookup of that result's metadata.
    @inlinable @inline(__always)
    func withLockedHeader<Result>(_ body: (inout Header) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { header, lock in
            Platform.lock(lock)
            defer { Platform.unlock(lock) }
            return try body(&header.pointee)
        }
    }
}
