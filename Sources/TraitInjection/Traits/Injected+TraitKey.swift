extension Injected {
    /// The value of the trait `key` for this instance.
    ///
    /// The first read stores ``TraitKey/defaultValue`` for this instance. Setting it on a struct
    /// whose identifier is shared with copies first gives this instance its own identifier with a
    /// copy of all its traits (copy-on-write), so copies never see each other's writes.
    ///
    /// ```swift
    /// joe[trait: PetTrait.self].name = "Coco"
    /// ```
    @inlinable
    public subscript<Key: TraitKey>(trait key: Key.Type) -> Key.Value {
        get { trait(key, orDefaultTo: Key.defaultValue) }
        set { setTrait(key, to: newValue) }
    }

    /// The value of the trait `key`, storing `defaultValue()` for this instance on the first read.
    ///
    /// Use this instead of `self[trait: Key.self]` when the instance computes its own default, for
    /// example from its own state:
    ///
    /// ```swift
    /// var catchphrase: String {
    ///     trait(CatchphraseTrait.self, orDefaultTo: defaultCatchphrase)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The trait's key type.
    ///   - defaultValue: The value to store if this instance has not read the trait yet. It is
    ///     evaluated only then.
    /// - Returns: The stored value.
    @inlinable
    public func trait<Key: TraitKey>(
        _ key: Key.Type,
        orDefaultTo defaultValue: @autoclosure () -> Key.Value
    ) -> Key.Value {
        if Self.isClass {
            // An object's first read finds out whether it is `Observable`. (Structs, whose traits
            // Observation cannot watch, never ask.)
            return TraitStore.value(
                of: .typed(key), for: injectableIdentifier, learning: { TraitObservers.of(self) },
                orStore: defaultValue)
        }
        return TraitStore.value(of: .typed(key), for: injectableIdentifier, observable: false, orStore: defaultValue)
    }

    /// Sets the trait `key` for this instance, with copy-on-write for struct copies.
    ///
    /// For a class instance, the identifier is never replaced, whichever way this is reached.
    @inlinable
    public mutating func setTrait<Key: TraitKey>(_ key: Key.Type, to value: Key.Value) {
        if Self.isClass {
            // An object's identifier is shared by every reference to it, maybe on other threads:
            // it is never replaced, so all references agree and no write is lost. (Reached here
            // through generic code or an existential, where the `Self: AnyObject` overload is
            // not chosen.)
            TraitStore.setValue(value, under: .typed(key), forShared: injectableIdentifier)
        } else {
            TraitStore.setValue(value, under: .typed(key), for: &injectableIdentifier)
        }
    }
}

extension Injected {
    /// Forgets this instance's value of the trait `key`, so that the next read stores its default
    /// again, computed from the instance as it is then.
    ///
    /// Struct copies share their traits until one of them writes, so a default computed from an
    /// instance's own state and stored by a read before copying is every copy's. Resetting the
    /// trait on a copy gives that copy its own default; the other copies keep theirs:
    ///
    /// ```swift
    /// var bob = joe               // joe has read his greeting: "Hello, Joe"
    /// bob.name = "Bob"
    /// bob.resetTrait(GreetingTrait.self)
    /// bob.greeting                // "Hello, Bob"; joe.greeting is still "Hello, Joe"
    /// ```
    ///
    /// For a class instance, every reference sees the trait forgotten.
    @inlinable
    public mutating func resetTrait<Key: TraitKey>(_ key: Key.Type) {
        if Self.isClass {
            // An object's identifier is never replaced: see `setTrait(_:to:)`.
            TraitStore.removeValue(under: .typed(key), forShared: injectableIdentifier)
        } else {
            TraitStore.removeValue(under: .typed(key), for: &injectableIdentifier)
        }
    }
}

extension Injected where Self: AnyObject {
    /// Forgets this object's value of the trait `key`, for every reference to it: the next read
    /// stores its default again.
    @inlinable
    public func resetTrait<Key: TraitKey>(_ key: Key.Type) {
        TraitStore.removeValue(under: .typed(key), forShared: injectableIdentifier)
    }

    /// The value of the trait `key` for this object, settable through any reference, even a `let`.
    ///
    /// All references to one object share its traits.
    @inlinable
    public subscript<Key: TraitKey>(trait key: Key.Type) -> Key.Value {
        get { trait(key, orDefaultTo: Key.defaultValue) }
        nonmutating set { setTrait(key, to: newValue) }
    }

    /// Sets the trait `key` for this object; all references to it see the new value.
    @inlinable
    public func setTrait<Key: TraitKey>(_ key: Key.Type, to value: Key.Value) {
        TraitStore.setValue(value, under: .typed(key), forShared: injectableIdentifier)
    }
}

extension Injected {
    /// Whether `Self` is a class. A constant where the type is known (`_canBeClass` is 0 for a
    /// struct or an enum): `Self.self is AnyObject.Type` alone is a runtime check, and a struct's
    /// trait read paid for it and for the object path it guards (about 20% of the read).
    @inlinable
    static var isClass: Bool {
        _canBeClass(Self.self) != 0 && Self.self is AnyObject.Type
    }
}
