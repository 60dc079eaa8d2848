import Dispatch
import TestFixtures
import Testing
import TraitInjection

/// A class whose traits are set through generic code and through an existential.
final class ThreadedKennel: Injected, @unchecked Sendable {
    // Written only at initialisation: the library never replaces an object's identifier.
    var injectableIdentifier = InjectableIdentifier()
}

/// Sets `ToyTrait` through generic code, where `T` may be a class or a struct.
func setToy<T: Injected>(_ value: String, on instance: inout T) {
    instance[trait: ToyTrait.self] = value
}

/// Sets `ToyTrait` through an existential.
func setToy(_ value: String, onExistential instance: inout any Injected) {
    instance[trait: ToyTrait.self] = value
}

extension TraitStoreStress {
    @Suite("Traits: a class's identifier is never replaced")
    struct ClassIdentifierStressTests {
        @Test("A generic or existential setter keeps an object's identifier while other references read it")
        func genericSetterKeepsIdentifier() {
            let kennel = ThreadedKennel()
            let identifier = kennel.injectableIdentifier
            var generic = kennel
            setToy("rope", on: &generic)
            var existential: any Injected = kennel
            setToy("bone", onExistential: &existential)
            #expect(kennel.injectableIdentifier === identifier)
            #expect(kennel[trait: ToyTrait.self] == "bone")
        }

        @Test("Stress: writes through generic and existential setters are never lost, with readers on other threads")
        func concurrentWritesStress() {
            let kennels = (0..<4).map { _ in ThreadedKennel() }
            let identifiers = kennels.map(\.injectableIdentifier)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for round in 0..<2_000 {
                    let kennel = kennels[(thread + round) % kennels.count]
                    switch thread {
                    case 0:
                        var generic = kennel
                        setToy("generic \(round)", on: &generic)
                    case 1:
                        var existential: any Injected = kennel
                        setToy("existential \(round)", onExistential: &existential)
                    default:
                        _ = kennel[trait: ToyTrait.self]
                        _ = kennel.injectableIdentifier
                    }
                }
            }
            for (kennel, identifier) in zip(kennels, identifiers) {
                #expect(kennel.injectableIdentifier === identifier)
            }
            // A last write through each path is seen by every reference.
            var generic = kennels[0]
            setToy("last", on: &generic)
            #expect(kennels[0][trait: ToyTrait.self] == "last")
        }

        @Test("A struct still copies on write through the same generic setter")
        func structStillCopiesOnWrite() {
            var first = Owner()
            first.toy = "ball"
            var second = first
            setToy("kite", on: &second)
            #expect(first.toy == "ball")
            #expect(second.toy == "kite")
            #expect(first.injectableIdentifier !== second.injectableIdentifier)
        }
    }
}
