import Testing
import TraitInjection
import TraitInjectionTesting

final class Database: Sendable {
    let rows: Int
    init(rows: Int = 0) { self.rows = rows }
}

// sample-begin
@Test(.container { $0.register(Database.self) { _ in Database(rows: 3) } })
func countsRows() throws {
    #expect(try Container.shared.resolve(Database.self).rows == 3)
}
// sample-end
