/// Lets the string-named API file an optional value under its wrapped type, so that `set` with a
/// `Pet?` and `get` returning `Pet?` (that is, `T == Pet`) meet, and `nil` means "no trait".
@usableFromInline
protocol OptionalTraitValue {
    associatedtype Wrapped

    var wrappedTraitValue: Wrapped? { get }

    init(wrappedTraitValue: Wrapped?)
}

extension Optional: OptionalTraitValue {
    @usableFromInline
    var wrappedTraitValue: Wrapped? { self }

    @usableFromInline
    init(wrappedTraitValue: Wrapped?) { self = wrappedTraitValue }
}

extension OptionalTraitValue {
    static func storedValue(traitName: String, for identifier: InjectableIdentifier) -> Self? {
        TraitStore.value(of: .named(traitName, Wrapped.self), as: Wrapped.self, for: identifier)
            .map { Self(wrappedTraitValue: $0) }
    }

    static func storedValue<T>(
        traitName: String,
        for identifier: InjectableIdentifier,
        orDefaultTo makeDefault: () -> T
    ) -> T {
        // `T` is `Self`: the caller opened it from `T.self`.
        if let stored = storedValue(traitName: traitName, for: identifier) {
            return stored as! T
        }
        let value = makeDefault()
        guard let wrapped = (value as! Self).wrappedTraitValue else { return value }
        let stored = TraitStore.value(of: .named(traitName, Wrapped.self), for: identifier) { wrapped }
        return Self(wrappedTraitValue: stored) as! T
    }

    @usableFromInline
    static func set<T>(_ value: T, traitName: String, for identifier: inout InjectableIdentifier) {
        // `T` is `Self`: the caller opened it from `T.self`.
        let key = TraitSlotKey.named(traitName, Wrapped.self)
        if let wrapped = (value as! Self).wrappedTraitValue {
            TraitStore.setValue(wrapped, under: key, for: &identifier)
        } else {
            TraitStore.removeValue(under: key, for: &identifier)
        }
    }

    /// ``set(_:traitName:for:)`` for an object's identifier, which is never replaced.
    @usableFromInline
    static func set<T>(_ value: T, traitName: String, forObject identifier: InjectableIdentifier) {
        let key = TraitSlotKey.named(traitName, Wrapped.self)
        if let wrapped = (value as! Self).wrappedTraitValue {
            TraitStore.setValue(wrapped, under: key, forShared: identifier)
        } else {
            TraitStore.removeValue(under: key, forShared: identifier)
        }
    }
}
