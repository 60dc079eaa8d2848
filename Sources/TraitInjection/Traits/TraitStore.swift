import Synchronization

/// The global trait store: every injected trait value of every live instance.
///
/// Each instance's values sit in a ``TraitSlot`` (its traits behind their own lock), which the
/// instance's ``InjectableIdentifier`` owns and points to. So:
/// - a read locks only that instance's slot and scans its few traits: O(1) whatever the number of
///   live instances, no allocation, and no contention between instances;
/// - a first read or a copy-on-write makes one slot and touches nothing shared but the count;
/// - a dead instance's values leave the store in its identifier's `deinit`, so pruning costs
///   O(its traits), once, and no operation ever scans the store.
///
/// There is no global index of slots: the original design's registry, keyed weakly by instance,
/// existed so that a sweep could find dead instances, and here every instance removes its own
/// values as it dies. Keeping one cost 40 ns of a first read with one live instance, 130 ns
/// with a million (a hash set too large for the cache), and made two threads creating and
/// dropping instances slower than one (see `Benchmarks/README.md`).
///
/// Values taken out of a slot are always released after its lock is dropped, because releasing
/// one may run a `deinit` that comes back to the store.
@usableFromInline
enum TraitStore {
    /// The number of (instance, trait) values held.
    private static let storedCount = Atomic<Int>(0)

    // MARK: Reading

    /// The value stored under `key` for `identifier`, if any.
    @inlinable
    static func value<Value>(
        of key: TraitSlotKey,
        as type: Value.Type,
        for identifier: InjectableIdentifier
    ) -> Value? {
        identifier.slot.withLock { $0.value(of: key, as: type) }
    }

    /// The value stored under `key` for `identifier`; on the first read, `makeDefault()` is
    /// evaluated (outside any lock), stored and returned.
    @inlinable
    static func value<Value>(
        of key: TraitSlotKey,
        for identifier: InjectableIdentifier,
        orStore makeDefault: () -> Value
    ) -> Value {
        if let stored = value(of: key, as: Value.self, for: identifier) {
            return stored
        }
        return storeDefault(makeDefault(), under: key, for: identifier)
    }

    @usableFromInline
    static func storeDefault<Value>(
        _ value: Value,
        under key: TraitSlotKey,
        for identifier: InjectableIdentifier
    ) -> Value {
        var candidate = value
        // The result comes back through `result` rather than as a `(Value, Bool)`, whose generic
        // tuple metadata the runtime would look up on every first read.
        var result = value
        let added = identifier.slot.withLock { entries -> Bool in
            // Another thread may have stored a value since our read: theirs wins.
            if let stored = entries.value(of: key, as: Value.self) {
                // Releases `result`'s copy of the default, never its last: `candidate` holds one.
                result = stored
                return false
            }
            return entries.store(&candidate, under: key).added
        }
        if added { adjustCount(by: 1) }
        // On a lost race, `candidate` (our unused default) is released here, outside the lock.
        withExtendedLifetime(candidate) {}
        return result
    }

    // MARK: Writing

    /// Stores `value` under `key` for `identifier`, first giving `identifier` a fresh identifier
    /// with a copy of all its traits if other copies share it.
    @inlinable
    static func setValue<Value>(
        _ value: Value,
        under key: TraitSlotKey,
        for identifier: inout InjectableIdentifier
    ) {
        if isKnownUniquelyReferenced(&identifier) {
            setValue(value, under: key, forShared: identifier)
        } else {
            identifier = copy(of: identifier, setting: value, under: key)
        }
    }

    /// Stores `value` under `key` for an identifier that is not replaced (a class instance's, or
    /// a uniquely held one).
    @inlinable
    static func setValue<Value>(
        _ value: Value,
        under key: TraitSlotKey,
        forShared identifier: InjectableIdentifier
    ) {
        var incoming = value
        let (added, released) = identifier.slot.withLock { $0.store(&incoming, under: key) }
        if added { adjustCount(by: 1) }
        // The replaced value (in `incoming` or `released`) is released here, outside the lock.
        withExtendedLifetime(incoming) {}
        withExtendedLifetime(released) {}
    }

    /// Removes the value under `key`, with the same copy-on-write rule as `setValue`.
    @usableFromInline
    static func removeValue(under key: TraitSlotKey, for identifier: inout InjectableIdentifier) {
        if isKnownUniquelyReferenced(&identifier) {
            removeValue(under: key, forShared: identifier)
        } else {
            var entries = identifier.slot.withLock { $0 }
            guard entries.remove(key) != nil else { return }
            identifier = adopt(entries)
        }
    }

    /// Removes the value under `key` for an identifier that is not replaced (a class instance's,
    /// or a uniquely held one).
    @usableFromInline
    static func removeValue(under key: TraitSlotKey, forShared identifier: InjectableIdentifier) {
        let released = identifier.slot.withLock { $0.remove(key) }
        if released != nil { adjustCount(by: -1) }
        // The removed value is released here, outside the lock.
        withExtendedLifetime(released) {}
    }

    /// A fresh identifier holding all of `source`'s traits, with `value` stored under `key`.
    @usableFromInline
    static func copy<Value>(
        of source: InjectableIdentifier,
        setting value: Value,
        under key: TraitSlotKey
    ) -> InjectableIdentifier {
        var entries = source.slot.withLock { $0 }
        var incoming = value
        _ = entries.store(&incoming, under: key)
        return adopt(entries)
    }

    /// A fresh identifier whose slot holds `entries`.
    private static func adopt(_ entries: TraitEntries) -> InjectableIdentifier {
        let fresh = InjectableIdentifier(entries: entries)
        adjustCount(by: entries.count)
        return fresh
    }

    // MARK: Counting

    /// Takes the values of an identifier that is being deinitialised out of the count. They are
    /// released when the identifier lets go of `slot`, right after, with no lock held.
    static func release(_ slot: TraitSlot) {
        adjustCount(by: -slot.withLock { $0.count })
    }

    @usableFromInline
    static func adjustCount(by values: Int) {
        storedCount.add(values, ordering: .relaxed)
    }

    // MARK: Diagnostics

    /// The number of (instance, trait) values held.
    static var count: Int {
        storedCount.load(ordering: .relaxed)
    }

    /// The number of values held for one instance.
    static func count(for identifier: InjectableIdentifier) -> Int {
        identifier.slot.withLock { $0.count }
    }
}
