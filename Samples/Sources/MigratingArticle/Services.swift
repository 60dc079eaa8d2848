// The types the *Migrating* article's samples assume.
import TraitInjection

final class Database: Sendable {}

final class Report: Sendable {
    let title: String
    let database: Database
    init(title: String, database: Database) {
        self.title = title
        self.database = database
    }
}

final class Child {}

final class Parent {
    var child: Child?
}

protocol Reading: Sendable {}
final class FileStore: Reading {}

final class Analytics: Sendable {}

// sample-begin
extension Container {
    var database: Registered<Database> { self { _ in Database() }.inScope(.container) }  // .singleton
    var report: RegisteredWith<String, Report> {  // ParameterFactory<String, Report>
        self { r, title in Report(title: title, database: try r.database()) }
    }
    var analytics: Registered<Analytics> { promised() }
}
// sample-end
