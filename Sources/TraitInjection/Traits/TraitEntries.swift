/// The traits of one instance: a short list searched linearly, since types carry a handful of
/// traits and comparing a few keys beats hashing one.
///
/// Cells may be shared with a copy-on-write sibling's entries; a shared cell is replaced on write,
/// never mutated, so neither side sees the other's writes.
@usableFromInline
struct TraitEntries {
    @usableFromInline
    struct Entry {
        @usableFromInline let key: TraitSlotKey
        @usableFromInline var box: AnyTraitBox

        @usableFromInline
        init(key: TraitSlotKey, box: AnyTraitBox) {
            self.key = key
            self.box = box
        }
    }

    @usableFromInline
    var entries: ContiguousArray<Entry> = []

    @usableFromInline
    init() {}

    @inlinable
    var count: Int { entries.count }

    @inlinable
    func index(of key: TraitSlotKey) -> Int? {
        var index = entries.startIndex
        while index < entries.endIndex {
            if entries[index].key == key { return index }
            index += 1
        }
        return nil
    }

    /// The value stored under `key`, which must have been stored as a `Value`.
    @inlinable
    func value<Value>(of key: TraitSlotKey, as _: Value.Type) -> Value? {
        guard let index = index(of: key) else { return nil }
        return value(at: index, as: Value.self)
    }

    /// The value at `index`, which must have been stored as a `Value`.
    @inlinable
    func value<Value>(at index: Int, as _: Value.Type) -> Value {
        unsafeDowncast(entries[index].box, to: TraitBox<Value>.self).value
    }

    /// Adds `value` under `key`, which has no entry.
    @inlinable
    mutating func append<Value>(_ value: Value, under key: TraitSlotKey) {
        entries.append(Entry(key: key, box: TraitBox(value)))
    }

    /// Stores `value` under `key`. A cell that no sibling shares is updated in place, with the old
    /// value swapped into `value` for the caller to release outside the lock; a shared cell is
    /// replaced and handed back for the same reason.
    ///
    /// - Returns: Whether a new entry was added, and the replaced cell, if any.
    @inlinable
    mutating func store<Value>(_ value: inout Value, under key: TraitSlotKey) -> (added: Bool, released: AnyTraitBox?) {
        guard let index = index(of: key) else {
            append(value, under: key)
            return (true, nil)
        }
        if isKnownUniquelyReferenced(&entries[index].box) {
            swap(&unsafeDowncast(entries[index].box, to: TraitBox<Value>.self).value, &value)
            return (false, nil)
        }
        let old = entries[index].box
        entries[index].box = TraitBox(value)
        return (false, old)
    }

    /// Removes the value under `key`, handing its cell back for release outside the lock.
    @usableFromInline
    mutating func remove(_ key: TraitSlotKey) -> AnyTraitBox? {
        guard let index = index(of: key) else { return nil }
        return entries.remove(at: index).box
    }
}
