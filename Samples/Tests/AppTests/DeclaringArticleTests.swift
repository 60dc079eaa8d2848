import Testing
import TraitInjection
import TraitInjectionTesting

// What the *Declaring services* article's test assumes: its declarations, as the article shows
// them (`Sources/DeclaringArticle` runs those), with types of their own.
extension Container {
    var database: Registered<DeclaringArticleTests.Database> {
        self { _ in DeclaringArticleTests.Database(path: "app.sqlite") }.inScope(.container)
    }
    var profile: Registered<DeclaringArticleTests.ProfileStore> {
        self { r in DeclaringArticleTests.ProfileStore(database: try r.database()) }
    }
}

struct DeclaringArticleTests {
    final class Database: Sendable {
        let path: String
        init(path: String) { self.path = path }
    }

    final class ProfileStore: Sendable {
        let database: Database
        init(database: Database) { self.database = database }
    }

    // sample-begin
    @Test(.container) func profileReadsTheDatabase() throws {
        Container.shared.database.register { _ in Database(path: ":memory:") }
        #expect(try Container.shared.profile().database.path == ":memory:")
    }
    // sample-end

    @Test(.container) func anotherTestGetsTheDefault() throws {
        #expect(try Container.shared.profile().database.path == "app.sqlite")
    }
}
