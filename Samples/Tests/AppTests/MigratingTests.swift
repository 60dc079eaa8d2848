import Testing
import TraitInjection
import TraitInjectionTesting

final class Database: Sendable {
    let rows: Int
    init(rows: Int = 0) { self.rows = rows }
}

extension Container {
    var salesDatabase: Registered<Database> { self { _ in Database() } }
}

// sample-begin
@Test(.container) func countsSales() throws {
    Container.shared.salesDatabase.register { _ in Database(rows: 3) }
    #expect(try Container.shared.salesDatabase().rows == 3)
}
// sample-end

@Test(.container { $0.register(Database.self) { _ in Database(rows: 3) } })
func countsRows() throws {
    #expect(try Container.shared.resolve(Database.self).rows == 3)
}
