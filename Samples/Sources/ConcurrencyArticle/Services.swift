// The services the *Concurrency* article's samples use.

/// Opened asynchronously, as a real database would be.
final class Database: Sendable {
    let path: String

    private init(path: String) { self.path = path }

    static func open(path: String) async throws -> Database {
        await Task.yield()
        return Database(path: path)
    }
}

/// Started asynchronously, then synchronised with the database.
actor Clock {
    private(set) var syncedWith: String?

    static func start() async -> Clock {
        await Task.yield()
        return Clock()
    }

    func sync(with database: Database) async {
        syncedWith = database.path
    }
}

final class Catalog: Sendable {
    let database: Database
    let clock: Clock

    init(database: Database, clock: Clock) {
        self.database = database
        self.clock = clock
    }
}

struct Settings: Sendable {
    let theme: String
}

@MainActor
final class ProfileViewModel {
    let settings: Settings
    init(settings: Settings) { self.settings = settings }
}

struct Report {
    let catalog: Catalog
    let clock: Clock
}
