import Dispatch
import Observation
import Synchronization
import TestFixtures
import Testing
import TraitInjection

/// A typed trait of the observed models, whose default comes from an injector.
enum ObservedPetTrait: TraitKey {
    static let pet = InjectorDefault(Pet.rover)
    static var defaultValue: Pet { pet.value }
}

/// A second typed trait, of the same value type as the first, read through `trait(_:orDefaultTo:)`.
enum ObservedWalkerTrait: TraitKey {
    static var defaultValue: Pet { Pet(name: "Rex", species: "Dog") }
}

/// A typed trait whose injector only the injector test changes.
enum ObservedBowlTrait: TraitKey {
    static let bowl = InjectorDefault("red")
    static var defaultValue: String { bowl.value }
}

/// The *Getting started* way: a trait protocol whose extension reads and writes a typed key.
protocol ObservedPetInjected: Injected {}

extension ObservedPetInjected {
    var pet: Pet {
        get { self[trait: ObservedPetTrait.self] }
        set { self[trait: ObservedPetTrait.self] = newValue }
    }

    var walker: Pet {
        get { trait(ObservedWalkerTrait.self, orDefaultTo: Pet(name: "Rex", species: "Dog")) }
        set { setTrait(ObservedWalkerTrait.self, to: newValue) }
    }

    /// A trait written the seed's way, through the string-named API.
    var nickname: String {
        get { Injectable.get(traitName: "nickname", for: injectableIdentifier, orDefaultTo: "none") }
        set { Injectable.set(traitName: "nickname", for: &injectableIdentifier, to: newValue) }
    }
}

/// What a generated trait adds for classes: setters through a `let` reference.
extension ObservedPetInjected where Self: AnyObject {
    var pet: Pet {
        get { self[trait: ObservedPetTrait.self] }
        nonmutating set { self[trait: ObservedPetTrait.self] = newValue }
    }

    var walker: Pet {
        get { trait(ObservedWalkerTrait.self, orDefaultTo: Pet(name: "Rex", species: "Dog")) }
        nonmutating set { setTrait(ObservedWalkerTrait.self, to: newValue) }
    }

    /// The string-named trait, set through the object's identifier as it is.
    var nickname: String {
        get { Injectable.get(traitName: "nickname", for: injectableIdentifier, orDefaultTo: "none") }
        nonmutating set { Injectable.set(traitName: "nickname", forObject: injectableIdentifier, to: newValue) }
    }
}

/// A trait written by hand with the string-named API's object forms, `forObject: self`.
protocol BadgeInjected: Injected {}

extension BadgeInjected where Self: AnyObject {
    var badge: String {
        get { Injectable.get(traitName: "badge", forObject: self, orDefaultTo: "none") }
        nonmutating set { Injectable.set(traitName: "badge", forObject: self, to: newValue) }
    }

    /// An optional string-named trait: `nil` removes it.
    var motto: String? {
        get { Injectable.get(traitName: "motto", forObject: self) }
        nonmutating set { Injectable.set(traitName: "motto", forObject: self, to: newValue) }
    }
}

/// An `@Observable` class whose only traits are string-named: nothing reads a typed key.
@Observable
final class BadgedModel: BadgeInjected {
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()
    var name = "Joe"
}

/// A class that is not `Observable`, with the same string-named traits.
class PlainBadged: BadgeInjected {
    var injectableIdentifier = InjectableIdentifier()
}

/// An `@Observable` subclass of a class that is not: its objects are observed, its base's not.
@Observable
final class ObservedBadged: PlainBadged {}

/// A class that is `Observable`, one per `Tag`: many classes, for the table of which are.
@Observable
final class ObservedTagged<Tag>: BadgeInjected {
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()
}

/// A class that is not, one per `Tag`.
final class PlainTagged<Tag>: BadgeInjected {
    var injectableIdentifier = InjectableIdentifier()
}

/// For `depth` types `[Tag]`, `[[Tag]]`, …: how many fresh `ObservedTagged` objects fire on a
/// set of their badge read first, and how many `PlainTagged` ones.
func firingsOfTaggedModels<Tag>(_: Tag.Type, depth: Int) -> (observed: Int, plain: Int) {
    guard depth > 0 else { return (0, 0) }
    let observed = ObservedTagged<Tag>()
    let plain = PlainTagged<Tag>()
    let here = (
        firings(of: { _ = observed.badge }, during: { observed.badge = "a" }),
        firings(of: { _ = plain.badge }, during: { plain.badge = "a" })
    )
    let deeper = firingsOfTaggedModels([Tag].self, depth: depth - 1)
    return (here.0 + deeper.observed, here.1 + deeper.plain)
}

@Observable
final class ObservedModel: ObservedPetInjected, @unchecked Sendable {
    // `@unchecked Sendable`: the tests set traits from other threads, which the library makes safe;
    // `name` is only touched on the test's thread and the identifier is never replaced.
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()
    var name = "Joe"
}

/// A class that is not `Observable`, with the same traits.
final class PlainModel: ObservedPetInjected {
    var injectableIdentifier = InjectableIdentifier()
}

/// A struct with the same traits: Observation cannot watch a value.
struct ObservedValue: ObservedPetInjected {
    var injectableIdentifier = InjectableIdentifier()
}

/// How many times the observers of `read` fired while `change` ran (`onChange` fires at most once
/// per tracking, so 0 or 1), and how many times in all while `change` ran, when `read` is tracked
/// afresh after every firing.
func firings(of read: () -> Void, during change: () -> Void) -> Int {
    let fired = Mutex(0)
    withObservationTracking(read) { fired.withLock { $0 += 1 } }
    change()
    return fired.withLock { $0 }
}

/// Sets `pet` through generic code over the trait protocol.
func rename<Owner: ObservedPetInjected>(_ owner: inout Owner, to name: String) {
    owner.pet.name = name
}

@Suite("Traits of an @Observable class take part in Observation")
struct TraitObservationTests {
    @Test("A set fires once, for the observers of that trait of that instance only")
    func setFiresOnceForThatTraitOnly() {
        let model = ObservedModel()
        let other = ObservedModel()
        #expect(firings(of: { _ = model.pet }, during: { model.pet = Pet(name: "Coco", species: "Dog") }) == 1)
        #expect(firings(of: { _ = model.pet }, during: { model.walker.name = "Fido" }) == 0)
        #expect(firings(of: { _ = model.pet }, during: { other.pet.name = "Bubba" }) == 0)
        #expect(firings(of: { _ = model.pet }, during: { model.name = "Joe" }) == 0)
        #expect(firings(of: { _ = model.walker }, during: { model.walker.name = "Max" }) == 1)
        #expect(model.pet.name == "Coco")
        #expect(model.walker.name == "Max")
        #expect(other.pet.name == "Bubba")
    }

    @Test("Reads fire nothing; the first read, which stores the default, is an access")
    func readsAreAccesses() {
        let model = ObservedModel()
        // The first read happens inside the tracking: it finds the object observable and is
        // recorded, so the set after it fires.
        #expect(firings(of: { _ = model.pet }, during: { _ = model.pet }) == 0)
        #expect(firings(of: { _ = model.walker }, during: { _ = ObservedModel().walker }) == 0)
        let fresh = ObservedModel()
        #expect(firings(of: { _ = fresh.pet }, during: { fresh.pet.name = "Coco" }) == 1)
    }

    @Test("A mutating member of the value fires once: model.pet.name = …")
    func mutatingMemberFiresOnce() {
        let model = ObservedModel()
        let fired = Mutex(0)
        withObservationTracking {
            _ = model.pet
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        model.pet.name = "Coco"
        model.pet.name = "Bubba"
        #expect(fired.withLock { $0 } == 1)  // once: `onChange` ends its tracking
        #expect(firings(of: { _ = model.pet.name }, during: { model.pet.name = "Max" }) == 1)
        #expect(model.pet.name == "Max")
    }

    @Test("Generic code over the trait protocol and an existential fire once")
    func genericAndExistentialSetsFire() {
        var model = ObservedModel()
        #expect(firings(of: { _ = model.pet }, during: { rename(&model, to: "Coco") }) == 1)
        var existential: any ObservedPetInjected = model
        #expect(firings(of: { _ = model.pet }, during: { existential.pet.name = "Bubba" }) == 1)
        #expect(firings(of: { _ = existential.pet }, during: { model.pet.name = "Max" }) == 1)
        #expect(model.pet.name == "Max")
    }

    @Test("The string API's sets fire once for the observers of that string-named trait only")
    func stringAPISetFires() {
        let model = ObservedModel()
        _ = model.pet  // the object's first typed read makes it known as observable
        #expect(firings(of: { _ = model.nickname }, during: { model.nickname = "Jo" }) == 1)
        #expect(firings(of: { _ = model.pet }, during: { model.nickname = "Joey" }) == 0)
        #expect(firings(of: { _ = model.nickname }, during: { model.pet.name = "Coco" }) == 0)
        // The `inout` setter fires too, and never replaces an object's identifier.
        let identifier = model.injectableIdentifier
        let copyOfReference = model
        #expect(
            firings(
                of: { _ = model.nickname },
                during: { Injectable.set(traitName: "nickname", for: &model.injectableIdentifier, to: "Joseph") }) == 1)
        #expect(model.injectableIdentifier === identifier)
        #expect(copyOfReference.nickname == "Joseph")
        // `nil` removes an optional string-named trait: a change if there was a value.
        let title = { () -> String? in Injectable.get(traitName: "title", for: model.injectableIdentifier) }
        #expect(
            firings(
                of: { _ = title() },
                during: { Injectable.set(traitName: "title", forObject: model.injectableIdentifier, to: "Dr") }) == 1)
        #expect(
            firings(
                of: { _ = title() },
                during: { Injectable.set(traitName: "title", forObject: model.injectableIdentifier, to: String?.none) })
                == 1)
        #expect(
            firings(
                of: { _ = title() },
                during: { Injectable.set(traitName: "title", forObject: model.injectableIdentifier, to: String?.none) })
                == 0)
        #expect(title() == nil)
    }

    @Test("An object with string-named traits only: the object forms' first read is observed, and each set fires")
    func stringNamedTraitsOnlyObject() {
        let model = BadgedModel()
        #expect(firings(of: { _ = model.badge }, during: { model.badge = "gold" }) == 1)
        #expect(model.badge == "gold")
        #expect(firings(of: { _ = model.badge }, during: { model.name = "Bob" }) == 0)
        #expect(firings(of: { _ = model.name }, during: { model.badge = "silver" }) == 0)
        // Only that object's observers.
        let other = BadgedModel()
        #expect(firings(of: { _ = other.badge }, during: { model.badge = "bronze" }) == 0)
        // An optional trait, read first as `nil`: setting it, and removing it, fire once each.
        let fresh = BadgedModel()
        #expect(firings(of: { _ = fresh.motto }, during: { fresh.motto = "Sit" }) == 1)
        #expect(firings(of: { _ = fresh.motto }, during: { fresh.motto = nil }) == 1)
        #expect(firings(of: { _ = fresh.motto }, during: { fresh.motto = nil }) == 0)
        #expect(fresh.motto == nil)
    }

    @Test("A string-named trait read before any typed one is observed through the object forms")
    func stringNamedReadBeforeATypedRead() {
        let model = ObservedModel()
        let badge = { Injectable.get(traitName: "badge", forObject: model, orDefaultTo: "none") }
        #expect(
            firings(
                of: { _ = badge() },
                during: { Injectable.set(traitName: "badge", forObject: model, to: "gold") }) == 1)
        // The string-named read taught the slot: the typed trait read next is observed too.
        #expect(firings(of: { _ = model.pet }, during: { model.pet.name = "Coco" }) == 1)
        // And a read through the identifier alone, now that the object is known.
        #expect(firings(of: { _ = model.nickname }, during: { model.nickname = "Jo" }) == 1)
        #expect(badge() == "gold")
    }

    @Test("Reads through the identifier alone are accesses only once the object is known to be Observable")
    func identifierFormsBeforeTheObjectIsKnown() {
        let model = ObservedModel()
        // The identifier alone does not tell whether its object is `Observable`.
        #expect(firings(of: { _ = model.nickname }, during: { model.nickname = "Jo" }) == 0)
        _ = model.pet
        #expect(firings(of: { _ = model.nickname }, during: { model.nickname = "Joey" }) == 1)
    }

    @Test("Which classes are Observable is told per class: subclasses, and more classes than the table has cells")
    func observableClassesPerClass() {
        let base = PlainBadged()
        #expect(firings(of: { _ = base.badge }, during: { base.badge = "a" }) == 0)
        let observed = ObservedBadged()
        #expect(firings(of: { _ = observed.badge }, during: { observed.badge = "a" }) == 1)
        let baseAgain = PlainBadged()
        #expect(firings(of: { _ = baseAgain.badge }, during: { baseAgain.badge = "a" }) == 0)
        // 2 × 150 classes, first seen in turn: cells are shared, and each answer stays right.
        for _ in 0..<2 {
            let (observedFirings, plainFirings) = firingsOfTaggedModels(Int.self, depth: 150)
            #expect(observedFirings == 150)
            #expect(plainFirings == 0)
        }
    }

    @Test("An observer that reads the object and tracks it again sees every string-named and typed set")
    func observerThatReadsTheObject() {
        let model = ObservedModel()
        _ = model.walker  // the object's first typed read makes it known as observable
        let seen = Mutex<[String]>([])
        @Sendable func track() {
            withObservationTracking {
                _ = model.nickname
                _ = model.pet
            } onChange: {
                // Runs before the change: it reads the object, and tracks it again.
                seen.withLock { $0.append(model.nickname) }
                track()
            }
        }
        track()
        model.nickname = "Jo"
        model.pet.name = "Coco"
        model.nickname = "Joey"
        #expect(seen.withLock { $0 } == ["none", "Jo", "Jo"])
        #expect(model.nickname == "Joey" && model.pet.name == "Coco")
    }

    @Test("A typed set whose observer makes a string-named set through the identifier keeps both writes")
    func observerSettingThroughTheIdentifierKeepsBothWrites() {
        let model = ObservedModel()
        let identifier = model.injectableIdentifier
        withObservationTracking {
            _ = model.pet
        } onChange: {
            let reference = model
            Injectable.set(traitName: "nickname", for: &reference.injectableIdentifier, to: "Jo")
        }
        model.pet.name = "Coco"
        #expect(model.pet.name == "Coco")
        #expect(model.nickname == "Jo")
        #expect(model.injectableIdentifier === identifier)
    }

    @Test("An identifier's description, asked before or after the first read, changes nothing")
    func describedIdentifiers() {
        let before = ObservedModel()
        let description = before.injectableIdentifier.description
        #expect(firings(of: { _ = before.pet }, during: { before.pet.name = "Coco" }) == 1)
        #expect(firings(of: { _ = before.walker }, during: { before.walker.name = "Max" }) == 1)
        #expect(before.injectableIdentifier.description == description)

        let after = ObservedModel()
        _ = after.pet
        let afterDescription = after.injectableIdentifier.description
        #expect(firings(of: { _ = after.walker }, during: { after.walker.name = "Max" }) == 1)
        #expect(firings(of: { _ = after.pet }, during: { after.pet.name = "Coco" }) == 1)
        #expect(after.injectableIdentifier.description == afterDescription && afterDescription != description)

        var value = ObservedValue()
        let valueDescription = value.injectableIdentifier.description
        value.pet.name = "Coco"
        var copy = value
        copy.pet.name = "Bubba"
        #expect(value.injectableIdentifier.description == valueDescription)
        #expect(copy.injectableIdentifier.description != valueDescription && value.pet.name == "Coco")
    }

    @Test("Resetting a trait fires once; its next read stores the default again")
    func resetFiresOnce() {
        let model = ObservedModel()
        model.pet.name = "Coco"
        #expect(firings(of: { _ = model.pet }, during: { model.resetTrait(ObservedPetTrait.self) }) == 1)
        #expect(firings(of: { _ = model.pet }, during: { _ = model.pet }) == 0)
        #expect(model.pet == .rover)
    }

    @Test("Changing an injector's default fires nothing: it changes nothing an instance holds")
    func injectorDefaultChangeFiresNothing() {
        let model = ObservedModel()
        #expect(model[trait: ObservedBowlTrait.self] == "red")
        #expect(
            firings(of: { _ = model[trait: ObservedBowlTrait.self] }, during: { ObservedBowlTrait.bowl.value = "blue" })
                == 0)
        #expect(model[trait: ObservedBowlTrait.self] == "red")
        #expect(ObservedModel()[trait: ObservedBowlTrait.self] == "blue")
    }

    @Test("A set on another thread fires once")
    func setOnAnotherThreadFires() async {
        let model = ObservedModel()
        let fired = Mutex(0)
        withObservationTracking {
            _ = model.pet
        } onChange: {
            fired.withLock { $0 += 1 }
        }
        await onOwnThreads { _ in model.pet.name = "Coco" }
        #expect(fired.withLock { $0 } == 1)
        #expect(model.pet.name == "Coco")
    }

    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    @Test("Observations { model.pet } yields the new value after a set")
    func observationsSequence() async {
        let model = ObservedModel()
        let names = Observations { model.pet.name }
        var iterator = names.makeAsyncIterator()
        #expect(await iterator.next() == "Rover")
        model.pet.name = "Coco"
        #expect(await iterator.next() == "Coco")
    }

    @Test("Plain classes and structs keep their traits and behaviour, and are never observed")
    func othersAreNotObserved() {
        let plain = PlainModel()
        #expect(firings(of: { _ = plain.pet }, during: { plain.pet.name = "Coco" }) == 0)
        #expect(plain.pet.name == "Coco")

        var value = ObservedValue()
        #expect(firings(of: { _ = value.pet }, during: { value.pet.name = "Coco" }) == 0)
        var copy = value
        copy.pet.name = "Bubba"
        #expect(value.pet.name == "Coco")
        #expect(copy.pet.name == "Bubba")
        #expect(copy.injectableIdentifier !== value.injectableIdentifier)
    }
}
