/// The string-named trait API: read and write a trait by name for an instance.
///
/// A trait protocol's extension uses it to add a stored, per-instance property:
///
/// ```swift
/// protocol PetInjected: Injected {}
///
/// extension PetInjected {
///     var pet: Pet {
///         get {
///             Injectable.get(traitName: "pet", for: injectableIdentifier, orDefaultTo: PetInjector.defaultPet)
///         }
///         mutating set {
///             Injectable.set(traitName: "pet", for: &injectableIdentifier, to: newValue)
///         }
///     }
/// }
/// ```
///
/// A trait is identified by the instance, its name *and* its value type: `"pet"` as a `Pet` and
/// `"pet"` as a `String` are two traits. An optional value is filed under its wrapped type, so an
/// optional property written with ``set(traitName:for:to:)`` reads back through
/// ``get(traitName:for:)``, and writing `nil` removes the trait.
///
/// All members are safe to call from any thread. For a faster, typo-proof path, see ``TraitKey``.
///
/// A class's traits take the object itself, `forObject: self`: every reference to it shares one
/// identifier, never replaced, so the setter can be `nonmutating`; and on an `@Observable` class
/// each read is an access and each set a change its observers see (the *Traits* article,
/// *Observing traits*):
///
/// ```swift
/// extension NicknameInjected where Self: AnyObject {
///     var nickname: String {
///         get { Injectable.get(traitName: "nickname", forObject: self, orDefaultTo: "") }
///         nonmutating set { Injectable.set(traitName: "nickname", forObject: self, to: newValue) }
///     }
/// }
/// ```
///
/// The forms that take only an identifier cannot tell whether its object is `Observable`: their
/// reads are accesses only once the object has read a trait through a typed key, a generated
/// trait or the forms that take it.
public enum Injectable {
    /// The trait `traitName` of type `T` stored for `identifier`, or `nil` if there is none.
    ///
    /// - Parameters:
    ///   - traitName: The trait's name.
    ///   - identifier: The instance's identifier.
    /// - Returns: The stored value, or `nil` if this instance has no `T` trait of that name.
    @inlinable
    public static func get<T: Sendable>(traitName: String, for identifier: InjectableIdentifier) -> T? {
        if let stored = TraitStore.value(of: .named(traitName, T.self), as: T.self, for: identifier) {
            return stored
        }
        return storedOptional(traitName: traitName, for: identifier)
    }

    /// The trait `traitName` of type `T` for `identifier`, storing `value` on the first read.
    ///
    /// Later reads return the stored value even if the default changes.
    ///
    /// - Parameters:
    ///   - traitName: The trait's name.
    ///   - identifier: The instance's identifier.
    ///   - value: The default; evaluated only when the trait is not stored yet.
    /// - Returns: The stored value.
    @inlinable
    public static func get<T: Sendable>(
        traitName: String,
        for identifier: InjectableIdentifier,
        orDefaultTo value: @autoclosure () -> T
    ) -> T {
        if let stored = TraitStore.value(of: .named(traitName, T.self), as: T.self, for: identifier) {
            return stored
        }
        return storeDefault(traitName: traitName, for: identifier, value)
    }

    /// Sets the trait `traitName` of type `T` for `identifier`.
    ///
    /// If `identifier` is shared with copies of a struct, it is first replaced by a fresh
    /// identifier holding a copy of all its traits, so the copies keep their values. For an
    /// object, use ``set(traitName:forObject:to:)-(_,Object,_)``.
    ///
    /// - Parameters:
    ///   - traitName: The trait's name.
    ///   - identifier: The instance's identifier, replaced on copy-on-write.
    ///   - value: The new value; `nil` (for an optional `T`) removes the trait.
    @inlinable
    public static func set<T: Sendable>(traitName: String, for identifier: inout InjectableIdentifier, to value: T) {
        if let optional = T.self as? any OptionalTraitValue.Type {
            optional.set(value, traitName: traitName, for: &identifier)
        } else {
            TraitStore.setValue(value, under: .named(traitName, T.self), for: &identifier)
        }
    }

    /// Sets the trait `traitName` of type `T` for an object, whose identifier `identifier` is.
    ///
    /// The identifier is taken as it is, not `inout`, and never replaced: every reference to the
    /// object sees the new value, on any thread, and the object's property is not written. So a
    /// class's string-named property can have a `nonmutating set`, and an `@Observable` class's
    /// observers, which this set fires, can read the object. Where you have the object, pass it
    /// (``set(traitName:forObject:to:)-(_,Object,_)``): reads through the identifier alone
    /// are accesses its observers see only once the object is known to be `Observable`.
    ///
    /// (With ``set(traitName:for:to:)``, the set is a write to the object's `injectableIdentifier`
    /// for its whole length, and an observer that reads the object meanwhile breaks Swift's
    /// exclusive access to it.) Do not use it for a struct: its copies, which share an identifier
    /// until one of them writes, would all see the value.
    ///
    /// - Parameters:
    ///   - traitName: The trait's name.
    ///   - identifier: The object's identifier.
    ///   - value: The new value; `nil` (for an optional `T`) removes the trait.
    @inlinable
    public static func set<T: Sendable>(traitName: String, forObject identifier: InjectableIdentifier, to value: T) {
        if let optional = T.self as? any OptionalTraitValue.Type {
            optional.set(value, traitName: traitName, forObject: identifier)
        } else {
            TraitStore.setValue(value, under: .named(traitName, T.self), forShared: identifier)
        }
    }

    // MARK: An object's traits

    /// The trait `traitName` of type `T` stored for `object`, or `nil` if there is none.
    ///
    /// As ``get(traitName:for:)``, for a class instance: on an `@Observable` class, the read is an
    /// access its observers track, whatever the object read before.
    ///
    /// - Parameters:
    ///   - traitName: The trait's name.
    ///   - object: The instance, usually `self`.
    /// - Returns: The stored value, or `nil` if this object has no `T` trait of that name.
    @inlinable
    public static func get<T: Sendable, Object: Injected & AnyObject>(
        traitName: String,
        forObject object: Object
    ) -> T? {
        let identifier = object.injectableIdentifier
        let key = TraitSlotKey.named(traitName, T.self)
        if let stored = TraitStore.value(of: key, as: T.self, for: identifier, learning: { .of(object) }) {
            return stored
        }
        return storedOptional(traitName: traitName, for: identifier)
    }

    /// The trait `traitName` of type `T` for `object`, storing `value` on the first read.
    ///
    /// As ``get(traitName:for:orDefaultTo:)``, for a class instance: on an `@Observable` class,
    /// the read is an access its observers track, whatever the object read before.
    ///
    /// ```swift
    /// var nickname: String {
    ///     get { Injectable.get(traitName: "nickname", forObject: self, orDefaultTo: "") }
    ///     nonmutating set { Injectable.set(traitName: "nickname", forObject: self, to: newValue) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - traitName: The trait's name.
    ///   - object: The instance, usually `self`.
    ///   - value: The default; evaluated only when the trait is not stored yet.
    /// - Returns: The stored value.
    @inlinable
    public static func get<T: Sendable, Object: Injected & AnyObject>(
        traitName: String,
        forObject object: Object,
        orDefaultTo value: @autoclosure () -> T
    ) -> T {
        let identifier = object.injectableIdentifier
        let key = TraitSlotKey.named(traitName, T.self)
        if let stored = TraitStore.value(of: key, as: T.self, for: identifier, learning: { .of(object) }) {
            return stored
        }
        return storeDefault(traitName: traitName, for: identifier, value)
    }

    /// Sets the trait `traitName` of type `T` for `object`: every reference to it sees the new
    /// value, on any thread, and on an `@Observable` class its observers of this trait fire once.
    ///
    /// As ``set(traitName:forObject:to:)-(_,InjectableIdentifier,_)`` with `object.injectableIdentifier`: the object's
    /// property is not written, so the setter can be `nonmutating`.
    ///
    /// - Parameters:
    ///   - traitName: The trait's name.
    ///   - object: The instance, usually `self`.
    ///   - value: The new value; `nil` (for an optional `T`) removes the trait.
    @inlinable
    public static func set<T: Sendable, Object: Injected & AnyObject>(
        traitName: String,
        forObject object: Object,
        to value: T
    ) {
        set(traitName: traitName, forObject: object.injectableIdentifier, to: value)
    }

    /// Releases the values of instances that no longer exist: there are none to release.
    ///
    /// An instance's values are released, and its entry leaves the store, as soon as its last copy
    /// goes away, so no dead instance's values ever wait for a sweep. Kept, and cheap to call, for
    /// code written against the article's API, which pruned on demand.
    public static func pruneInjectedValues() {}

    /// The number of (instance, trait) values the store holds for live instances.
    ///
    /// Exact once the threads that changed traits have finished, or synchronised with the reader;
    /// read while they run, it is a snapshot that may lag their last changes.
    public static var storedTraitCount: Int {
        TraitStore.count
    }

    // MARK: Slow paths, kept out of line

    /// A miss for `T`: if `T` is optional, the value may be filed under its wrapped type.
    @usableFromInline
    static func storedOptional<T>(traitName: String, for identifier: InjectableIdentifier) -> T? {
        guard let optional = T.self as? any OptionalTraitValue.Type,
            let stored = optional.storedValue(traitName: traitName, for: identifier)
        else { return nil }
        return (stored as! T)
    }

    /// A first read: store the default, filing an optional under its wrapped type.
    @usableFromInline
    static func storeDefault<T>(traitName: String, for identifier: InjectableIdentifier, _ value: () -> T) -> T {
        if let optional = T.self as? any OptionalTraitValue.Type {
            return optional.storedValue(traitName: traitName, for: identifier, orDefaultTo: value)
        }
        return TraitStore.value(of: .named(traitName, T.self), for: identifier, orStore: value)
    }
}
