/// Lets the string-named API file an optional value under its wrapped type, so that `set` with a
/// `Pet?` and `get` returning `Pet?` (that is, `T == Pet`) meet, and `nil` means "no trait".
protocol OptionalTraitValue {
    associatedtype Wrapped

    var wrappedTraitValue: Wrapped? { get }

    init(wrappedTraitValue: Wrapped?)
}

extension Optional: OptionalTraitValue {
    var wrappedTraitValue: Wrapped? { self }

    init(wrappedTraitValue: Wrapped?) { self = wrappedTraitValue }
}

extension OptionalTraitValue {
    static func storedValue(traitName: String, for identifier: InjectableIdentifier) -> Self? {
        TraitStore.shared.value(of: .named(traitName, Wrapped.self), as: Wrapped.self, for: identifier)
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
        let stored = TraitStore.shared.value(of: .named(traitName, Wrapped.self), for: identifier) { wrapped }
        return Self(wrappedTraitValue: stored) as! T
    }

    static func set<T>(_ value: T, traitName: String, for identifier: inout InjectableIdentifier) {
        // `T` is `Self`: the caller opened it from `T.self`.
        let key = TraitSlotKey.named(traitName, Wrapped.self)
        if let wrapped = (value as! Self).wrappedTraitValue {
            TraitStore.shared.setValue(wrapped, under: key, for: &identifier)
        } else {
            TraitStore.shared.removeValue(under: key, for: &identifier)
        }
    }
}
