import Observation

/// Whether a slot's object takes part in Observation: kept in the slot's header, and read and
/// changed only under its lock, with the trait a read or a write is for.
///
/// A struct's slot stays `unknown`: structs never ask, and the string-named API's forms that take
/// only the identifier never change it. A slot that is not `unknown` is an object's, and its
/// identifier is never replaced (``TraitStore/copy(of:setting:under:)``), so these are one
/// object's for the slot's life.
///
/// An `@Observable` class keeps its stored properties' registrar private, so its traits get
/// registrars of their own: one per trait, made on the trait's first read, each tracked under
/// the one key path ``TraitSubject/keyPath``. Observation does not need the object:
/// `withObservationTracking` and SwiftUI record the registrar and the key path of each access,
/// and a mutation fires the observers recorded under both. So setting one trait never fires the
/// observers of another, nor those of another object's.
@usableFromInline
enum TraitObservers {
    /// Not known yet: a struct's slot, or an object's before its first read that has the object.
    case unknown
    /// An object that is not `Observable`.
    case unobservable
    /// An `Observable` object, with the traits read so far: few (an object carries a handful),
    /// so searched linearly, as the slot's entries are. The string-named API can read any number
    /// of names: each keeps a registrar for the object's life.
    case observed([ObservedTrait])
    /// Any of the above, with the number the identifier's description shows, given the first time
    /// it is asked for (``TraitSlot/number(orAssign:)``). Kept here, in a box made then, rather
    /// than in a field of its own: 8 more bytes in every slot made two threads creating and
    /// dropping instances 1.27× one thread instead of 1.7× (the next allocation size).
    indirect case numbered(UInt64, TraitObservers)

    /// Whether the slot's object is not known yet (a struct's slot is never known).
    @inlinable
    var isUnknown: Bool {
        switch self {
        case .unknown, .numbered(_, .unknown): true
        case .unobservable, .observed, .numbered: false
        }
    }

    /// Whether the slot's object may be observed: checked inline, the rest out of line.
    @inlinable
    var mayBeObserved: Bool {
        switch self {
        case .unknown, .unobservable: false
        case .observed: true
        // Never nested: a number is given once. (Not recursive, so that it inlines.)
        case .numbered(_, .observed): true
        case .numbered: false
        }
    }

    /// Replaces an unknown state with `learned`, keeping the number.
    @usableFromInline
    mutating func learn(_ learned: TraitObservers) {
        updateNumbered { if case .unknown = $0 { $0 = learned } }
    }

    /// Runs `update` on the state, inside its number if it has one.
    private mutating func updateNumbered(_ update: (inout TraitObservers) -> Void) {
        guard case .numbered(let number, var observers) = self else { return update(&self) }
        // Lets go of the box, so that `observers` holds its array alone (and appends in place).
        self = .unknown
        update(&observers)
        self = .numbered(number, observers)
    }

    /// Where `object`'s traits report: found on its first read that has the object, under its
    /// slot's lock.
    ///
    /// The check is of the object's dynamic type (a subclass may be `Observable`), remembered
    /// per class (``ObservableClasses``).
    @usableFromInline
    static func of<Object: Injected>(_ object: Object) -> TraitObservers {
        ObservableClasses.contains(type(of: object)) ? .observed([]) : .unobservable
    }

    /// The trait `key` of an observed object, if it has been read: until then, no observer can
    /// be tracking it, and a write need not tell anyone.
    @usableFromInline
    func observed(_ key: TraitSlotKey) -> ObservedTrait? {
        if case .numbered(_, let observers) = self { return observers.observed(key) }
        guard case .observed(let traits) = self else { return nil }
        return traits.first { $0.key == key }
    }

    /// Records a read of `key` by an observed object, for the observers being tracked on this
    /// thread, if the trait has been read before; returns whether it has.
    ///
    /// Called under the slot's lock, so as to take no reference out of it: Observation only adds
    /// the registrar and the key path to this thread's access list, and runs no user code.
    @usableFromInline
    func recordAccess(of key: TraitSlotKey) -> Bool {
        if case .numbered(_, let observers) = self { return observers.recordAccess(of: key) }
        guard case .observed(let traits) = self else { return true }
        guard let index = traits.firstIndex(where: { $0.key == key }) else { return false }
        traits[index].recordAccess()
        return true
    }

    /// Records the first read of `key` by an observed object, which makes the trait's registrar;
    /// under the slot's lock, as ``recordAccess(of:)``.
    @usableFromInline
    mutating func recordFirstAccess(of key: TraitSlotKey) {
        updateNumbered { observers in
            guard case .observed(var traits) = observers else { return }
            // Leaves `traits` the array's only reference, so that the append is in place.
            observers = .unobservable
            let trait = ObservedTrait(key: key)
            traits.append(trait)
            observers = .observed(traits)
            trait.recordAccess()
        }
    }
}

/// One trait of an `Observable` object, as Observation sees it.
@usableFromInline
final class ObservedTrait: Sendable {
    let key: TraitSlotKey
    let registrar = ObservationRegistrar()
    /// ``TraitSubject/keyPath``, kept here so that a read need not check that it is made.
    let keyPath = TraitSubject.keyPath

    init(key: TraitSlotKey) {
        self.key = key
    }

    /// Records a read for the observers being tracked on this thread.
    func recordAccess() {
        registrar.access(TraitSubject(), keyPath: keyPath)
    }

    /// Runs `change`, a write of this trait, between the registrar's `willSet` and `didSet`, so
    /// that its observers fire once. They run here, outside any lock (`change` takes its own).
    @usableFromInline
    func changing<Result>(_ change: () -> Result) -> Result {
        registrar.withMutation(of: TraitSubject(), keyPath: keyPath, change)
    }
}

/// The subject of every trait access and mutation: Observation records only a registrar and a
/// key path, so the subject is a value with no state, and every trait is tracked under the same
/// key path in a registrar of its own.
struct TraitSubject: Observable {
    /// The member the key path names; never read for a value.
    var value: Int { 0 }

    /// `\TraitSubject.value`, made once.
    static let keyPath: any KeyPath<TraitSubject, Int> & Sendable = \TraitSubject.value
}
