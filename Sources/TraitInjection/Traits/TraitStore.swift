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
    /// (``TraitObservers/of(_:)``); without it (the string-named API, which has only the
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
            if case .unknown = header.observers, let learned = learn() {
                header.observers = learned
            }
            if case .observed = header.observers, !header.observers.recordAccess(of: key) {
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
    @inlinable
    static func store<Value>(
        _ value: inout Value,
        under key: TraitSlotKey,
        in slot: TraitSlot,
        unlessObserved: Bool
    ) -> ObservedTrait? {
        var observed: ObservedTrait?
        let (added, released) = slot.withLockedHeader { header -> (added: Bool, released: AnyTraitBox?) in
            if unlessObserved, case .observed = header.observers, let trait = header.observers.observed(key) {
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
        } else {
            let (entries, observers) = identifier.slot.withLockedHeader { ($0.entries, $0.observers) }
            guard entries.index(of: key) != nil else { return }
            identifier = changing(observers.observed(key)) {
                var entries = entries
                _ = entries.remove(key)
                return adopt(entries, observers: observers)
            }
        }
    }

    /// Removes the value under `key` for an identifier that is not replaced (a class instance's,
    /// or a uniquely held one): for an observed object, a mutation of `key`.
    @usableFromInline
    static func removeValue(under key: TraitSlotKey, forShared identifier: InjectableIdentifier) {
        let observed = identifier.slot.withLockedHeader { $0.observers.observed(key) }
        let released = changing(observed) {
            identifier.slot.withLock { $0.remove(key) }
        }
        if released != nil { adjustCount(by: -1) }
        // The removed value is released here, outside the lock.
        withExtendedLifetime(released) {}
    }

    /// A fresh identifier holding all of `source`'s traits, with `value` stored under `key`: for
    /// an observed object (whose identifier a string-named set replaced), a mutation of `key`,
    /// and the fresh identifier reports to the same observers.
    @usableFromInline
    static func copy<Value>(
        of source: InjectableIdentifier,
        setting value: Value,
        under key: TraitSlotKey
    ) -> InjectableIdentifier {
        var observers = TraitObservers.unknown
        var entries = source.slot.withLockedHeader { header -> TraitEntries in
            observers = header.observers
            return header.entries
        }
        var incoming = value
        guard case .observed = observers, let trait = observers.observed(key) else {
            _ = entries.store(&incoming, under: key)
            return adopt(entries, observers: observers)
        }
        return trait.changing {
            _ = entries.store(&incoming, under: key)
            return adopt(entries, observers: observers)
        }
    }

    /// Runs `change`, a write of a trait: within a mutation if observers may be tracking it.
    private static func changing<Result>(_ observed: ObservedTrait?, _ change: () -> Result) -> Result {
        guard let observed else { return change() }
        return observed.changing(change)
    }

    /// A fresh identifier whose slot holds `entries`, observed as `observers` say.
    private static func adopt(_ entries: TraitEntries, observers: TraitObservers) -> InjectableIdentifier {
        let fresh = InjectableIdentifier(entries: entries, observers: observers)
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
