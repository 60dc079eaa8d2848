import TestFixtures
import Testing

@testable import TraitInjection

@Suite("Registration table: named lookups spread over the table")
struct RegistrationTableTests {
    @Test("Names of equal length land in many different slots, so a named lookup is O(1)")
    func namesSpread() {
        let mask = 16_384 - 1
        let slots = Set(
            (0..<10_000).map { index in
                RegistrationTable.slot(
                    for: ServiceKey(Service.self, name: "service-\(10_000 + index)", arguments: Void.self),
                    mask: mask
                )
            }
        )
        // A hash of the name's length alone put all 10,000 in one slot.
        #expect(slots.count > 5_000)
    }

    @Test("One of 10,000 named registrations resolves, and replacing one keeps the others")
    func manyNames() throws {
        let container = Container()
        for index in 0..<10_000 {
            container.register(Int.self, name: "name-\(10_000 + index)") { _ in index }
        }
        #expect(try container.resolve(Int.self, name: "name-15000") == 5_000)
        container.register(Int.self, name: "name-15000") { _ in -1 }
        #expect(try container.resolve(Int.self, name: "name-15000") == -1)
        #expect(try container.resolve(Int.self, name: "name-15001") == 5_001)
    }

    @Test("A snapshot finds every registration of its table, finds nothing else, and never changes")
    func snapshotMatchesTable() {
        let container = Container()
        for index in 0..<1_000 {
            container.register(Int.self, name: "n\(index)") { _ in index }
        }
        container.register(Int.self) { _ in -1 }
        container.register(String.self, name: "n1") { _ in "one" }
        container.register(Int.self, name: "n1") { (_, extra: Int) in extra }
        let table = container.registry.withLock(\.table)
        let snapshot = RegistrySnapshot(table: table)
        #expect(table.count == 1_003)
        // Every key, including those that share a slot with others, finds its own registration.
        for (key, registration) in table.entries {
            #expect(snapshot.registration(for: key)?.takeUnretainedValue() === registration)
            #expect(table.registration(for: key) === registration)
        }
        // Keys that differ in the name, the service or the argument types find nothing.
        for missing in [
            ServiceKey(Int.self, name: "n1000", arguments: Void.self),
            ServiceKey(Double.self, name: "n1", arguments: Void.self),
            ServiceKey(Int.self, name: "n2", arguments: Int.self),
            ServiceKey(String.self, name: nil, arguments: Void.self),
        ] {
            #expect(snapshot.registration(for: missing) == nil)
            #expect(table.registration(for: missing) == nil)
        }
        // A registration replaced in the container leaves the snapshot taken before it as it was.
        let key = ServiceKey(Int.self, name: "n7", arguments: Void.self)
        let before = snapshot.registration(for: key)?.takeUnretainedValue()
        container.register(Int.self, name: "n7") { _ in 7_000 }
        #expect(snapshot.registration(for: key)?.takeUnretainedValue() === before)
        let replaced = container.registry.withLock(\.table)
        #expect(replaced.count == 1_003)
        #expect(replaced.registration(for: key) !== before)
    }
}
