/// What identifies one trait value among an instance's traits.
///
/// String-named traits are told apart by name *and* value type, typed traits by their key type;
/// the two kinds never collide.
@usableFromInline
enum TraitSlotKey: Hashable, Sendable {
    case named(String, valueType: ObjectIdentifier)
    case typed(keyType: ObjectIdentifier)

    @inlinable
    static func named<Value>(_ name: String, _: Value.Type) -> Self {
        .named(name, valueType: ObjectIdentifier(Value.self))
    }

    @inlinable
    static func typed<Key: TraitKey>(_: Key.Type) -> Self {
        .typed(keyType: ObjectIdentifier(Key.self))
    }
}

/// A heap cell for one trait value; the store knows each cell's `Value` from its key.
@usableFromInline
class AnyTraitBox {
    @usableFromInline
    init() {}
}

@usableFromInline
final class TraitBox<Value>: AnyTraitBox {
    @usableFromInline
    var value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}
