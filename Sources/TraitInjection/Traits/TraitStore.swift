import Synchronization

/// The global trait store: every injected trait value of every live instance, filed by a weak
/// ``TraitIdentifier`` per instance and a ``TraitSlotKey`` per trait.
///
/// Costs, whatever the number of live instances:
/// - a read is one lock, one hash lookup of the instance's serial and a scan of its few traits,
///   with no allocation once the trait is stored;
/// - a dead instance's values leave the store in its identifier's `deinit`, so pruning costs
///   O(its traits), once, and no operation ever scans the store.
///
/// Values taken out of the store are always released after the lock is dropped, because releasing
/// one may run a `deinit` that comes back to the store.
final class TraitStore: Sendable {
    static let shared = TraitStore()

    struct State {
        var slots: [TraitIdentifier: TraitSlot] = [:]
        var count = 0
    }

    private let state = Locked(State())

    // MARK: Reading

    /// The value stored under `key` for `identifier`, if any.
    @inline(__always)
    func value<Value>(
        of key: TraitSlotKey,
        as type: Value.Type,
        for identifier: InjectableIdentifier
    ) -> Value? {
        guard identifier.hasStoredTraits.load(ordering: .acquiring) else { return nil }
        let probe = TraitIdentifier(probing: identifier.serial)
        return state.withLock { state in
            state.slots[probe]?.value(of: key, as: type)
        }
    }

    /// The value stored under `key` for `identifier`; on the first read, `makeDefault()` is
    /// evaluated (outside the lock), stored and returned.
    @inline(__always)
    func value<Value>(
        of key: TraitSlotKey,
        for identifier: InjectableIdentifier,
        orStore makeDefault: () -> Value
    ) -> Value {
        if let stored = value(of: key, as: Value.self, for: identifier) {
            return stored
        }
        return storeDefault(makeDefault(), under: key, for: identifier)
    }

    private func storeDefault<Value>(
        _ value: Value,
        under key: TraitSlotKey,
        for identifier: InjectableIdentifier
    ) -> Value {
        var candidate = value
        let (result, released) = state.withLock { state -> (Value, TraitSlot.Released) in
            // Another thread may have stored a value since our read: theirs wins.
            if let stored = state.slots[TraitIdentifier(probing: identifier.serial)]?.value(
                of: key,
                as: Value.self
            ) {
                return (stored, .nothing)
            }
            let result = candidate
            return (result, state.store(&candidate, under: key, for: identifier))
        }
        _ = released
        return result
    }

    // MARK: Writing

    /// Stores `value` under `key` for `identifier`, giving `identifier` a fresh identifier with a
    /// copy of all its traits first if other copies share it.
    @inline(__always)
    func setValue<Value>(
        _ value: Value,
        under key: TraitSlotKey,
        for identifier: inout InjectableIdentifier
    ) {
        var incoming = value
        if isKnownUniquelyReferenced(&identifier) {
            let target = identifier
            let released = state.withLock { $0.store(&incoming, under: key, for: target) }
            _ = released
        } else {
            let fresh = InjectableIdentifier()
            let source = identifier
            let released = state.withLock { state in
                state.copyTraits(from: source, to: fresh)
                return state.store(&incoming, under: key, for: fresh)
            }
            _ = released
            identifier = fresh
        }
        // `incoming` may now hold the value it replaced; it is released here, outside the lock.
    }

    /// Stores `value` under `key` for an identifier that is never replaced (a class instance's).
    func setValue<Value>(
        _ value: Value,
        under key: TraitSlotKey,
        forShared identifier: InjectableIdentifier
    ) {
        var incoming = value
        let released = state.withLock { $0.store(&incoming, under: key, for: identifier) }
        _ = released
    }

    /// Removes the value under `key`, with the same copy-on-write rule as ``setValue(_:under:for:)``.
    func removeValue(under key: TraitSlotKey, for identifier: inout InjectableIdentifier) {
        guard identifier.hasStoredTraits.load(ordering: .acquiring) else { return }
        if isKnownUniquelyReferenced(&identifier) {
            let target = identifier
            let released = state.withLock { $0.remove(key, for: target) }
            _ = released
        } else {
            let fresh = InjectableIdentifier()
            let source = identifier
            let released = state.withLock { state in
                state.copyTraits(from: source, to: fresh)
                return state.remove(key, for: fresh)
            }
            _ = released
            identifier = fresh
        }
    }

    // MARK: Pruning

    /// Drops the slot of an identifier that is being deinitialised.
    func removeSlot(serial: UInt64) {
        let released = state.withLock { state -> TraitSlot.Released in
            guard let slot = state.slots.removeValue(forKey: TraitIdentifier(probing: serial)) else {
                return .nothing
            }
            state.count -= slot.entries.count
            return .slot(slot)
        }
        _ = released
    }

    /// Drops every slot whose identifier is gone. Normally there is none: identifiers remove their
    /// own slot when they die. This is the full sweep the seed ran on every access, kept for
    /// callers that want to be sure; it costs O(live instances).
    func pruneDeadSlots() {
        let released = state.withLock { state -> [TraitSlot] in
            let dead = state.slots.filter { $0.key.injectableIdentifier == nil }
            for (key, slot) in dead {
                state.slots.removeValue(forKey: key)
                state.count -= slot.entries.count
            }
            return Array(dead.values)
        }
        _ = released
    }

    /// The number of (instance, trait) values held.
    var count: Int {
        state.withLock { $0.count }
    }
}

extension TraitStore.State {
    /// Stores `value` (swapping out the old one into it, if updated in place).
    mutating func store<Value>(
        _ value: inout Value,
        under key: TraitSlotKey,
        for identifier: InjectableIdentifier
    ) -> TraitSlot.Released {
        let index = slotIndex(for: identifier)
        let before = slots.values[index].entries.count
        let released = slots.values[index].store(&value, under: key)
        count += slots.values[index].entries.count - before
        return released
    }

    mutating func remove(_ key: TraitSlotKey, for identifier: InjectableIdentifier) -> TraitSlot.Released {
        guard let index = slots.index(forKey: TraitIdentifier(probing: identifier.serial)) else {
            return .nothing
        }
        let released = slots.values[index].remove(key)
        if case .box = released { count -= 1 }
        return released
    }

    /// Gives `target` a slot holding every trait of `source` (sharing the cells, which the first
    /// write to either side replaces rather than mutates).
    mutating func copyTraits(from source: InjectableIdentifier, to target: InjectableIdentifier) {
        guard let entries = slots[TraitIdentifier(probing: source.serial)]?.entries,
            !entries.isEmpty
        else { return }
        let index = slotIndex(for: target)
        slots.values[index].entries = entries
        count += entries.count
    }

    /// The index of `identifier`'s slot, creating an empty one if it has none.
    private mutating func slotIndex(for identifier: InjectableIdentifier) -> [TraitIdentifier: TraitSlot].Index {
        let probe = TraitIdentifier(probing: identifier.serial)
        if let index = slots.index(forKey: probe) {
            return index
        }
        slots[TraitIdentifier(identifier)] = TraitSlot()
        identifier.hasStoredTraits.store(true, ordering: .releasing)
        return slots.index(forKey: probe).unsafelyUnwrapped
    }
}
