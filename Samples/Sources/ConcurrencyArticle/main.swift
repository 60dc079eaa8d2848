// The *Concurrency* article's samples, run in order, with checks of what their comments say.
import TraitInjection
import TraitInjectionDiagnostics

let container = Container()

// sample-begin
container.register(Database.self) { _ in
    try await Database.open(path: "app.sqlite")
}
.inScope(.container)

container.register(Catalog.self) { r in
    Catalog(database: try await r.resolve(Database.self), clock: try await r.resolve(Clock.self))
}
// sample-end

// A synchronous resolve cannot make it (once made and kept, the instance is handed to any resolve).
do {
    _ = try container.resolve(Database.self)
    preconditionFailure("a synchronous resolve of an async registration succeeded")
} catch {
    precondition(error.kind == .needsAsyncResolve)
}

// sample-begin
container.register(Clock.self) { _ in await Clock.start() }
    .inScope(.container)
    .initCompleted { r, clock in
        await clock.sync(with: try await r.resolve(Database.self))
    }

let catalog = try await container.resolveAsync(Catalog.self)
// sample-end

precondition(catalog.database.path == "app.sqlite")
let synced = await catalog.clock.syncedWith
precondition(synced == "app.sqlite")
let database = try await container.resolveAsync(Database.self)
precondition(database === catalog.database)

// sample-begin
container.register(Settings.self) { _ in Settings(theme: "dark") }
container.register(ProfileViewModel.self) { @MainActor r in
    ProfileViewModel(settings: try r.resolve(Settings.self))
}

// Anywhere: runs the factory on the main actor and returns its instance.
let viewModel = try await container.resolveAsync(ProfileViewModel.self)
// sample-end

precondition(viewModel.settings.theme == "dark")
let elsewhere = try await Task.detached { try await container.resolveAsync(ProfileViewModel.self) }.value
precondition(elsewhere.settings.theme == "dark")
let refused = await Task.detached { () -> ResolutionError.Kind? in
    do throws(ResolutionError) {
        _ = try container.resolve(ProfileViewModel.self)
        return nil
    } catch {
        return error.kind
    }
}.value
precondition(refused == .needsMainActor)

// sample-begin
container.register(Report.self) { r in
    async let catalog = r.resolve(Catalog.self)
    async let clock = r.resolve(Clock.self)
    return Report(catalog: try await catalog, clock: try await clock)
}
// sample-end

let report = try await container.resolveAsync(Report.self)
precondition(report.catalog.database === catalog.database)

// sample-begin
try await container.verifyAsync()
// sample-end

print("Concurrency article samples: OK")
