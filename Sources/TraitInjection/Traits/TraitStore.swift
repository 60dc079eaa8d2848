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
    ///
    /// For an `Observable` object, the read is an access its observers track, recorded under
    /// the slot's lock (``TraitObservers/recordAccess(of:)``, which runs no user code). Where the
    /// caller has the object, `learn` finds out, on its first read, whether it is `Observable`
    /// (``TraitObservers/of(_:)``); without it (the string-named API's forms that take only the
    /// identifier) a read is an access only once that is known. A struct's reads pass
    /// `observable: false`, and the check folds away.
    @inlinable
    static func value<Value>(
        of key: TraitSlotKey,
        as type: Value.Type,
        for identifier: InjectableIdentifier,
        observable: Bool = true,
        learning learn: () -> TraitObservers? = { nil }
    ) -> Value? {
        identifier.slot.withLockedHeader { header -> Value? in
            guard observable else { return header.entries.value(of: key, as: type) }
            if header.observers.isUnknown, let learned = learn() {
                header.observers.learn(learned)
            }
            if header.observers.mayBeObserved, !header.observers.recordAccess(of: key) {
                header.observers.recordFirstAccess(of: key)
            }
            return header.entries.value(of: key, as: type)
        }
    }

    /// The value stored under `key` for `identifier`; on the first read, `makeDefault()` is
    /// evaluated (outside any lock), stored and returned. Either is an access, never a mutation,
    /// for an object's observers.
    @inlinable
    static func value<Value>(
        of key: TraitSlotKey,
        for identifier: InjectableIdentifier,
        observable: Bool = true,
        learning learn: () -> TraitObservers? = { nil },
        orStore makeDefault: () -> Value
    ) -> Value {
        if let stored = value(of: key, as: Value.self, for: identifier, observable: observable, learning: learn) {
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
        // The result comes back through `result` rather than as a `(Value, Bool)`, whose generic
        // tuple metadata the runtime would look up on every first read.
        var result = value
        let added = identifier.slot.withLock { entries -> Bool in
            // Another thread may have stored a value since our read: theirs wins. (Checked by
            // index, not by `value(of:as:)`, whose `Value?` result the runtime would look up.)
            if let index = entries.index(of: key) {
                // Releases `result`'s copy of the default, never its last: the caller's `value`
                // holds one, released outside the lock.
                result = entries.value(at: index, as: Value.self)
                return false
            }
            entries.append(value, under: key)
            return true
        }
        if added { adjustCount(by: 1) }
        // `value` outlives the lock, so that losing the race never releases the last copy of a
        // default (whose `deinit` may come back to this slot) under it.
        withExtendedLifetime(value) {}
        return result
    }

    // MARK: Writing

    /// Stores `value` under `key` for `identifier`, first giving `identifier` a fresh identifier
    /// with a copy of all its traits if other copies share it, unless it is an object's.
    @inlinable
    static func setValue<Value>(
        _ value: Value,
        under key: TraitSlotKey,
        for identifier: inout InjectableIdentifier
    ) {
        if isKnownUniquelyReferenced(&identifier) {
            setValue(value, under: key, forShared: identifier)
        } else if let fresh = copy(of: identifier, setting: value, under: key) {
            identifier = fresh
        }
    }

    /// Stores `value` under `key` for an identifier that is not replaced (a class instance's, or
    /// a uniquely held one).
    ///
    /// For an observed object whose trait `key` has been read, the store is a mutation its
    /// observers see once.
    @inlinable
    static func setValue<Value>(
        _ value: Value,
        under key: TraitSlotKey,
        forShared identifier: InjectableIdentifier
    ) {
        var incoming = value
        if let observed = store(&incoming, under: key, in: identifier.slot, unlessObserved: true) {
            observed.changing {
                _ = store(&incoming, under: key, in: identifier.slot, unlessObserved: false)
            }
        }
        // The replaced value, swapped into `incoming`, is released here, outside the lock.
        withExtendedLifetime(incoming) {}
    }

    /// Stores `value` under `key` in `slot`, swapping the replaced value into `value`; or, if
    /// `unlessObserved` and observers may be tracking the trait, stores nothing and returns it,
    /// for the caller to store within a mutation.
    ///
    /// The check and the store are one hold of the lock, so a first observed read of the trait
    /// (which makes its registrar) comes either before (and this is a mutation) or after (and
    /// reads the new value).
    @inlinable
    static func store<Value>(
        _ value: inout Value,
        under key: TraitSlotKey,
        in slot: TraitSlot,
        unlessObserved: Bool
    ) -> ObservedTrait? {
        var observed: ObservedTrait?
        let (added, released) = slot.withLockedHeader { header -> (added: Bool, released: AnyTraitBox?) in
            if unlessObserved, header.observers.mayBeObserved, let trait = header.observers.observed(key) {
                observed = trait
                return (false, nil)
            }
            return header.entries.store(&value, under: key)
        }
        if added { adjustCount(by: 1) }
        // A replaced shared cell is released here, outside the lock.
        withExtendedLifetime(released) {}
        return observed
    }

    /// Removes the value under `key`, with the same copy-on-write rule as `setValue`.
    @usableFromInline
    static func removeValue(under key: TraitSlotKey, for identifier: inout InjectableIdentifier) {
        if isKnownUniquelyReferenced(&identifier) {
            removeValue(under: key, forShared: identifier)
            return
        }
        guard var entries = entriesToCopy(from: identifier) else {
            return removeValue(under: key, forShared: identifier)
        }
        guard entries.remove(key) != nil else { return }
        identifier = adopt(entries)
    }

    /// Removes the value under `key` for an identifier that is not replaced (a class instance's,
    /// or a uniquely held one). For an observed object whose trait `key` has been read, removing
    /// a value is a mutation its observers see once; removing none is not a change.
    @usableFromInline
    static func removeValue(under key: TraitSlotKey, forShared identifier: InjectableIdentifier) {
        var observed: ObservedTrait?
        var removed = identifier.slot.withLockedHeader { header -> AnyTraitBox? in
            guard header.entries.index(of: key) != nil else { return nil }
            // Checked and removed in one hold of the lock, as `store` does.
            if header.observers.mayBeObserved, let trait = header.observers.observed(key) {
                observed = trait
                return nil
            }
            return header.entries.remove(key)
        }
        if let observed {
            removed = observed.changing { identifier.slot.withLock { $0.remove(key) } }
        }
        if removed != nil { adjustCount(by: -1) }
        // The removed value is released here, outside the lock.
        withExtendedLifetime(removed) {}
    }

    /// A fresh identifier holding all of `source`'s traits, with `value` stored under `key`; or,
    /// if `source` is an object's, `nil`, once `value` is stored for it in place.
    ///
    /// An object's identifier is never replaced, even through the string-named setter, which
    /// takes it `inout`: a typed set or read running meanwhile (another thread's, or the one whose
    /// observers made this set) holds the identifier too, and would write to a slot no longer the
    /// object's. A slot is known to be an object's once a read that has the object (a typed key,
    /// the string-named API's object forms) has found it; until then no observer can be tracking it.
    @usableFromInline
    static func copy<Value>(
        of source: InjectableIdentifier,
        setting value: Value,
        under key: TraitSlotKey
    ) -> InjectableIdentifier? {
        guard var entries = entriesToCopy(from: source) else {
            setValue(value, under: key, forShared: source)
            return nil
        }
        var incoming = value
        _ = entries.store(&incoming, under: key)
        return adopt(entries)
    }

    /// The entries of `identifier` for a copy-on-write copy, or `nil` if it is an object's.
    private static func entriesToCopy(from identifier: InjectableIdentifier) -> TraitEntries? {
        identifier.slot.withLockedHeader { header -> TraitEntries? in
            guard header.observers.isUnknown else { return nil }
            return header.entries
        }
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
