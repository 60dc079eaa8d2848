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
}
