import Synchronization

/// The global trait store: every injected trait value of every live instance.
///
/// Each instance's values sit in a ``TraitSlot`` (its traits behind their own lock), which the
/// store's registry files under a weak ``TraitIdentifier`` and the instance's
/// ``InjectableIdentifier`` also points to. So:
/// - a read locks only that instance's slot and scans its few traits: O(1) whatever the number of
///   live instances, no allocation, and no contention between instances;
/// - a dead instance's values leave the store in its identifier's `deinit`, so pruning costs
///   O(its traits), once, and no operation ever scans the store.
///
/// Values taken out of a slot are always released after its lock is dropped, because releasing
/// one may run a `deinit` that comes back to the store.
@usableFromInline
enum TraitStore {
    /// Every slot, under a weak key: the store's index for pruning and diagnostics.
    private static let registry = Locked.make([TraitIdentifier: TraitSlot]())

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
        guard let slot = identifier.storedSlot else { return nil }
        return slot.withLock { $0.value(of: key, as: type) }
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
        let (result, added) = slot(for: identifier).withLock { entries -> (Value, Bool) in
            // Another thread may have stored a value since our read: theirs wins.
            if let stored = entries.value(of: key, as: Value.self) {
                return (stored, false)
            }
            let result = candidate
            return (result, entries.store(&candidate, under: key).added)
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
        let (added, released) = slot(for: identifier).withLock { $0.store(&incoming, under: key) }
        if added { adjustCount(by: 1) }
        // The replaced value (in `incoming` or `released`) is released here, outside the lock.
        withExtendedLifetime(incoming) {}
        withExtendedLifetime(released) {}
    }

    /// Removes the value under `key`, with the same copy-on-write rule as `setValue`.
    @usableFromInline
    static func removeValue(under key: TraitSlotKey, for identifier: inout InjectableIdentifier) {
        guard let slot = identifier.storedSlot else { return }
        if isKnownUniquelyReferenced(&identifier) {
            removeValue(under: key, forShared: identifier)
        } else {
            var entries = slot.withLock { $0 }
            guard entries.remove(key) != nil else { return }
            identifier = adopt(entries)
        }
    }

    /// Removes the value under `key` for an identifier that is not replaced (a class instance's,
    /// or a uniquely held one).
    @usableFromInline
    static func removeValue(under key: TraitSlotKey, forShared identifier: InjectableIdentifier) {
        guard let slot = identifier.storedSlot else { return }
        let released = slot.withLock { $0.remove(key) }
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
        var entries = source.storedSlot?.withLock { $0 } ?? TraitEntries()
        var incoming = value
        _ = entries.store(&incoming, under: key)
        return adopt(entries)
    }

    /// A fresh identifier whose slot holds `entries`.
    private static func adopt(_ entries: TraitEntries) -> InjectableIdentifier {
        let fresh = InjectableIdentifier()
        let (slot, token) = fresh.installSlot(TraitSlot.make(entries))
        if let token { register(slot, serial: fresh.serial, lifetime: token) }
        adjustCount(by: entries.count)
        return fresh
    }

    // MARK: Slots

    /// `identifier`'s slot, created and registered on first use.
    @usableFromInline
    static func slot(for identifier: InjectableIdentifier) -> TraitSlot {
        if let slot = identifier.storedSlot {
            return slot
        }
        let (slot, token) = identifier.installSlot(TraitSlot.make(TraitEntries()))
        if let token { register(slot, serial: identifier.serial, lifetime: token) }
        return slot
    }

    private static func register(_ slot: TraitSlot, serial: UInt64, lifetime: LifetimeToken) {
        registry.withLock { $0[TraitIdentifier(serial: serial, lifetime: lifetime)] = slot }
    }

    /// Drops the slot of an identifier that is being deinitialised. Its values are released when
    /// the identifier lets go of the slot, right after, with no lock held.
    static func unregister(serial: UInt64, slot: TraitSlot) {
        let removed = registry.withLock { $0.removeValue(forKey: TraitIdentifier(probing: serial)) }
        adjustCount(by: -slot.withLock { $0.count })
        withExtendedLifetime(removed) {}
    }

    @usableFromInline
    static func adjustCount(by values: Int) {
        storedCount.add(values, ordering: .relaxed)
    }

    // MARK: Pruning and diagnostics

    /// Drops every registered slot whose identifier is gone. Normally there is none, since
    /// identifiers remove their own slot when they die; this is the full sweep the original design
    /// ran on every access, kept for callers that want it. It costs O(live instances).
    static func pruneDeadSlots() {
        let dead = registry.withLock { registry -> [TraitSlot] in
            let deadKeys = registry.keys.filter(\.isDead)
            return deadKeys.compactMap { registry.removeValue(forKey: $0) }
        }
        // The dead slots' values are released here, outside the lock.
        withExtendedLifetime(dead) {}
    }

    /// The number of (instance, trait) values held.
    static var count: Int {
        storedCount.load(ordering: .relaxed)
    }

    /// The number of values held for one instance.
    static func count(for identifier: InjectableIdentifier) -> Int {
        identifier.storedSlot?.withLock { $0.count } ?? 0
    }

    /// Whether the registry holds a slot under `serial`.
    static func containsSlot(serial: UInt64) -> Bool {
        registry.withLock { $0[TraitIdentifier(probing: serial)] != nil }
    }
}
