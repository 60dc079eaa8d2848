/// What identifies one trait value within an instance's slot.
///
/// String-named traits are told apart by name *and* value type, typed traits by their key type;
/// the two kinds never collide.
enum TraitSlotKey: Hashable {
    case named(String, valueType: ObjectIdentifier)
    case typed(keyType: ObjectIdentifier)

    static func named<Value>(_ name: String, _: Value.Type) -> Self {
        .named(name, valueType: ObjectIdentifier(Value.self))
    }

    static func typed<Key: TraitKey>(_: Key.Type) -> Self {
        .typed(keyType: ObjectIdentifier(Key.self))
    }
}

/// A heap cell for one trait value; the store knows each cell's `Value` from its key.
class AnyTraitBox {}

final class TraitBox<Value>: AnyTraitBox {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// The traits of one instance: a short list searched linearly, since types carry a handful of
/// traits and comparing a few keys beats hashing one.
struct TraitSlot {
    struct Entry {
        let key: TraitSlotKey
        var box: AnyTraitBox
    }

    var entries: ContiguousArray<Entry> = []

    @inline(__always)
    func index(of key: TraitSlotKey) -> Int? {
        entries.firstIndex { $0.key == key }
    }

    /// The value stored under `key`, which must have been stored as a `Value`.
    @inline(__always)
    func value<Value>(of key: TraitSlotKey, as _: Value.Type) -> Value? {
        guard let index = index(of: key) else { return nil }
        return unsafeDowncast(entries[index].box, to: TraitBox<Value>.self).value
    }

    /// Stores `value` under `key` and hands back whatever the caller must release outside the lock.
    ///
    /// A cell that no other slot shares is updated in place (no allocation); one shared with a
    /// copy-on-write sibling is replaced.
    mutating func store<Value>(_ value: inout Value, under key: TraitSlotKey) -> Released {
        guard let index = index(of: key) else {
            entries.append(Entry(key: key, box: TraitBox(value)))
            return .nothing
        }
        if isKnownUniquelyReferenced(&entries[index].box) {
            let box = unsafeDowncast(entries[index].box, to: TraitBox<Value>.self)
            swap(&box.value, &value)  // `value` now holds the old value, released by the caller.
            return .nothing
        }
        let old = entries[index].box
        entries[index].box = TraitBox(value)
        return .box(old)
    }

    /// Removes the value under `key`, handing it back for release outside the lock.
    mutating func remove(_ key: TraitSlotKey) -> Released {
        guard let index = index(of: key) else { return .nothing }
        return .box(entries.remove(at: index).box)
    }

    /// What a store operation took out of the store, to be dropped after the lock is released.
    enum Released {
        case nothing
        case box(AnyTraitBox)
        case slot(TraitSlot)
    }
}
