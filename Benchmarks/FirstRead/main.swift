// A trait's first read, counted by `run.sh`: `FirstRead ROW COUNT` makes COUNT fresh owners and
// reads each one's trait once in `hotLoop…` (the function callgrind counts);
// `FirstRead time COUNT` times each row's reads, best of 15 passes.
import TraitInjection

struct Pet: Sendable {
    var name: String
}

enum PetTrait: TraitKey {
    static var defaultValue: Pet { Pet(name: "Rover") }
}

/// A class that is not `Observable`, with a typed trait.
final class PlainOwner: Injected {
    var injectableIdentifier = InjectableIdentifier()

    var pet: Pet {
        get { self[trait: PetTrait.self] }
        set { self[trait: PetTrait.self] = newValue }
    }
}

/// A struct with the same trait.
struct StructOwner: Injected {
    var injectableIdentifier = InjectableIdentifier()

    var pet: Pet {
        get { self[trait: PetTrait.self] }
        set { self[trait: PetTrait.self] = newValue }
    }
}

/// A class with a trait read through the string-named API, as the seed writes it.
final class StringOwner: Injected {
    var injectableIdentifier = InjectableIdentifier()

    var nickname: String {
        Injectable.get(traitName: "nickname", for: injectableIdentifier, orDefaultTo: "none")
    }
}

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

@inline(never) func hotLoopPlain(_ owners: [PlainOwner]) { for owner in owners { blackHole(owner.pet) } }
@inline(never) func hotLoopStruct(_ owners: [StructOwner]) { for owner in owners { blackHole(owner.pet) } }
@inline(never) func hotLoopString(_ owners: [StringOwner]) { for owner in owners { blackHole(owner.nickname) } }

/// Nanoseconds per read of each row, best of 15 passes over `count` fresh owners.
func time(_ count: Int) -> (plain: Int, struct: Int, string: Int) {
    var best = (plain: Duration.seconds(1_000), struct: Duration.seconds(1_000), string: Duration.seconds(1_000))
    let clock = ContinuousClock()
    for _ in 0..<15 {
        let plain = (0..<count).map { _ in PlainOwner() }
        let structs = (0..<count).map { _ in StructOwner() }
        let strings = (0..<count).map { _ in StringOwner() }
        best.plain = min(best.plain, clock.measure { hotLoopPlain(plain) })
        best.struct = min(best.struct, clock.measure { hotLoopStruct(structs) })
        best.string = min(best.string, clock.measure { hotLoopString(strings) })
        blackHole((plain, structs, strings))
    }
    func nanoseconds(_ duration: Duration) -> Int { Int(duration / .nanoseconds(1)) / count }
    return (nanoseconds(best.plain), nanoseconds(best.struct), nanoseconds(best.string))
}

let row = CommandLine.arguments[1]
let count = Int(CommandLine.arguments[2])!
switch row {
case "plain":
    let owners = (0..<count).map { _ in PlainOwner() }
    hotLoopPlain(owners)
    blackHole(owners)
case "struct":
    let owners = (0..<count).map { _ in StructOwner() }
    hotLoopStruct(owners)
    blackHole(owners)
case "string":
    let owners = (0..<count).map { _ in StringOwner() }
    hotLoopString(owners)
    blackHole(owners)
case "time":
    let nanoseconds = time(count)
    print("plain \(nanoseconds.plain) struct \(nanoseconds.struct) string \(nanoseconds.string)")
default:
    fatalError("usage: FirstRead plain|struct|string|time COUNT")
}
