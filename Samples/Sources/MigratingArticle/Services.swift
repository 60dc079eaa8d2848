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
