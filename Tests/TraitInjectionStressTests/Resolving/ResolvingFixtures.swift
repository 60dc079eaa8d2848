import TestFixtures

@testable import TraitInjection

// Helpers of the tests of the resolution engine's internals (`Sources/TraitInjection/Resolving`).

/// An object that counts its deinitialisation, with a number to tell instances apart.
final class Probe: Sendable {
    let number: Int
    let deinits: DeinitCounter

    init(number: Int = 0, deinits: DeinitCounter = DeinitCounter()) {
        self.number = number
        self.deinits = deinits
    }

    deinit { deinits.increment() }
}

/// A family of registrations whose keys differ in service type, name and argument types: five
/// keys per name, so that keys with the same name (and name hash) differ only by their types.
enum KeyFamily {
    /// The name of key `index`.
    static func name(_ index: Int) -> String { "k\(index / 5)" }

    /// The key of registration `index`.
    static func key(_ index: Int) -> ServiceKey {
        let name = name(index)
        return switch index % 5 {
        case 0: ServiceKey(Int.self, name: name, arguments: Void.self)
        case 1: ServiceKey(String.self, name: name, arguments: Void.self)
        case 2: ServiceKey(Int.self, name: name, arguments: Int.self)
        case 3: ServiceKey(Int.self, name: name, arguments: (Int, String).self)
        default: ServiceKey(Service.self, name: name, arguments: Void.self)
        }
    }

    /// Registers registration `index`, whose resolves give `value`.
    static func register(_ index: Int, in container: Container, value: Int) {
        let name = name(index)
        switch index % 5 {
        case 0: container.register(Int.self, name: name) { _ in value }
        case 1: container.register(String.self, name: name) { _ in "\(value)" }
        case 2: container.register(Int.self, name: name) { (_, offset: Int) in value + offset }
        case 3: container.register(Int.self, name: name) { (_, offset: Int, _: String) in value + offset }
        default: container.register(Service.self, name: name) { _ in Service(number: value) }
        }
    }

    /// The value registration `index` gives now.
    static func resolve(_ index: Int, in container: Container) throws -> Int {
        let name = name(index)
        return switch index % 5 {
        case 0: try container.resolve(Int.self, name: name)
        case 1: Int(try container.resolve(String.self, name: name)) ?? -1
        case 2: try container.resolve(Int.self, name: name, arguments: 0)
        case 3: try container.resolve(Int.self, name: name, arguments: 0, "")
        default: try container.resolve(Service.self, name: name).number
        }
    }
}

extension KeptSlot {
    /// Whether the slot keeps nothing and nothing is being made for it.
    var isEmpty: Bool {
        withKept { kept, _ in if case .empty = kept { true } else { false } }
    }

    /// Whether an instance is being made for the slot: other resolves would wait for it.
    var isCreating: Bool {
        withKept { kept, _ in if case .creating = kept { true } else { false } }
    }
}

extension Container {
    /// The entry of `Service` under `name`, registered here.
    func entry<Service>(of _: Service.Type, name: String? = nil) -> RegistryEntry? {
        registry.entry(for: ServiceKey(Service.self, name: name, arguments: Void.self))
    }
}

/// The most indexes a registry of `count` entries can have built: their sizes strictly increase
/// (an index is built only when a lookup finds a key the last one lacks, and entries are never
/// removed), and the retired ones hold at most `2 × count + 64` entries (invariant 3 of
/// ``Registry``); so `m` indexes need `1 + 2 + … + (m − 1) ≤ 2 × count + 64`.
func mostIndexes(forEntries count: Int) -> Int {
    var indexes = 1
    while indexes * (indexes + 1) / 2 <= 2 * count + 64 { indexes += 1 }
    return indexes
}
