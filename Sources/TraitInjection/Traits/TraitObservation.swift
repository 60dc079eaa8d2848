import Observation

/// Whether a slot's object takes part in Observation: kept in the slot's header, and read under
/// its lock with the trait a read or a write is for.
///
/// A struct's slot stays `unknown`: structs never ask, and the string-named API, which has only
/// the identifier, never changes it.
@usableFromInline
enum TraitObservers {
    /// Not known yet: a struct's slot, or an object's before its first typed trait read.
    case unknown
    /// An object that is not `Observable`.
    case unobservable
    /// An `Observable` object: its reads are accesses and its writes mutations, reported to the
    /// registrar of each trait.
    case observed(ObservedTraits)

    /// Where `object`'s traits report: found on its first typed read, under its slot's lock.
    @usableFromInline
    static func of<Object: Injected>(_ object: Object) -> TraitObservers {
        object is any Observable ? .observed(ObservedTraits(traits: [])) : .unobservable
    }

    /// The trait `key` of an observed object, if it has been read: until then, no observer can
    /// be tracking it, and a write need not tell anyone.
    @usableFromInline
    func observed(_ key: TraitSlotKey) -> ObservedTrait? {
        guard case .observed(let traits) = self else { return nil }
        return traits.trait(key)
    }

    /// Records a read of `key` by an observed object, for the observers being tracked on this
    /// thread, if the trait has been read before; returns whether it has.
    ///
    /// Called under the slot's lock, so as to take no reference out of it: Observation only adds
    /// the registrar and the key path to this thread's access list, and runs no user code.
    @usableFromInline
    func recordAccess(of key: TraitSlotKey) -> Bool {
        guard case .observed(let traits) = self else { return true }
        return traits.recordAccess(of: key)
    }

    /// Records the first read of `key` by an observed object, which makes the trait's registrar;
    /// under the slot's lock, as ``recordAccess(of:)``.
    @usableFromInline
    mutating func recordFirstAccess(of key: TraitSlotKey) {
        guard case .observed(let traits) = self else { return }
        let trait = ObservedTrait(key: key)
        self = .observed(ObservedTraits(traits: traits.traits + [trait]))
        trait.recordAccess()
    }
}

/// The traits of one `Observable` object that have been read, each with its registrar.
///
/// An `@Observable` class keeps its stored properties' registrar private, so its traits get
/// registrars of their own: one per trait, each tracked under the one key path
/// ``TraitSubject/keyPath``. Observation does not need the object: `withObservationTracking` and
/// SwiftUI record the registrar and the key path of each access, and a mutation fires the
/// observers recorded under both. So setting one trait never fires the observers of another, nor
/// those of another object's.
///
/// Immutable, so that copy-on-write copies of an identifier (which a string-named set on an
/// object can make) share it safely: a trait's first read replaces the slot's instance, under
/// the slot's lock, with one that also holds that trait.
@usableFromInline
final class ObservedTraits: Sendable {
    /// Few (an object carries a handful of traits), so searched linearly, as the slot's entries.
    let traits: [ObservedTrait]

    init(traits: [ObservedTrait]) {
        self.traits = traits
    }

    /// The trait `key`, if it has been read.
    func trait(_ key: TraitSlotKey) -> ObservedTrait? {
        guard let index = index(of: key) else { return nil }
        return traits[index]
    }

    /// Records a read of the trait `key` if it has been read before; returns whether it has.
    func recordAccess(of key: TraitSlotKey) -> Bool {
        guard let index = index(of: key) else { return false }
        traits[index].recordAccess()
        return true
    }

    private func index(of key: TraitSlotKey) -> Int? {
        var index = traits.startIndex
        while index < traits.endIndex {
            if traits[index].key == key { return index }
            index += 1
        }
        return nil
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
