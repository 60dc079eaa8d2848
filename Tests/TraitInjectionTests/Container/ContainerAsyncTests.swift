import Synchronization
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

/// Async factories, `resolveAsync`, and main-actor registrations, one task at a time (the
/// concurrent behaviour is in the stress tests).
@Suite("Container: async and main-actor resolution")
struct ContainerAsyncTests {
    /// A service an async factory makes, with the dependencies it got.
    final class Database: Sendable {
        let path: String
        init(path: String) { self.path = path }
    }

    final class Catalog: Sendable {
        let database: Database
        let animal: any Animal
        init(database: Database, animal: any Animal) {
            self.database = database
            self.animal = animal
        }
    }

    /// A service completed by an async `initCompleted` closure.
    final class Warmed: @unchecked Sendable {
        var database: Database?
    }

    /// Stands in for real async work: suspends and comes back.
    static func open(_ path: String) async -> Database {
        await Task.yield()
        return Database(path: path)
    }

    func container() -> Container {
        let container = Container()
        container.register(Database.self) { _ in await Self.open("/tmp/app.db") }.inScope(.container)
        container.register((any Animal).self) { _ in Cat(name: "Mimi") }
        container.register(Catalog.self) { r in
            Catalog(database: try await r.resolve(Database.self), animal: try await r.resolve((any Animal).self))
        }
        return container
    }

    @Test("An async factory resolves with resolveAsync, with sync and async dependencies")
    func asyncFactory() async throws {
        let container = container()
        let catalog = try await container.resolveAsync(Catalog.self)
        #expect(catalog.database.path == "/tmp/app.db")
        #expect((catalog.animal as? Cat)?.name == "Mimi")
        // `.container`: the same instance from then on.
        #expect(try await container.resolveAsync(Database.self) === catalog.database)
        // A synchronous call site in an async function compiles unchanged, without `await`.
        let animal = try container.resolve((any Animal).self)
        #expect(animal is Cat)
    }

    @Test("Names, runtime arguments and parent containers work as for sync factories")
    func namesArgumentsParents() async throws {
        let parent = Container()
        parent.register(Database.self, name: "backup") { _ in await Self.open("/backup.db") }
        parent.register(Database.self) { (_, path: String, suffix: Int) in await Self.open("\(path).\(suffix)") }
        let child = Container(parent: parent)
        #expect(try await child.resolveAsync(Database.self, name: "backup").path == "/backup.db")
        #expect(try await child.resolveAsync(Database.self, arguments: "/a", 2).path == "/a.2")
    }

    @Test("A sync resolve of an async registration, or of a graph that needs one, throws a clear error")
    func syncResolveOfAsync() throws {
        let container = container()
        container.register(Warmed.self) { r in
            let warmed = Warmed()
            warmed.database = try r.resolve(Database.self)
            return warmed
        }
        let direct = #expect(throws: ResolutionError.self) { try container.resolve(Database.self) }
        #expect(direct?.kind == .needsAsyncResolve)
        #expect(direct?.description.contains("resolveAsync") == true)
        let nested = #expect(throws: ResolutionError.self) { try container.resolve(Warmed.self) }
        #expect(nested?.kind == .needsAsyncResolve)
        #expect(nested?.service.hasPrefix("Database") == true)
        #expect(nested?.path.map(\.service) == ["Warmed"])
    }

    @Test("A cycle across await is reported with its path, through the resolver and through resolveAsync")
    func cycles() async throws {
        let container = Container()
        container.register(Parent.self) { r in Parent(child: try await r.resolve(Child.self)) }
        container.register(Child.self) { _ in
            // Through the container, inside the factory: still part of the same resolve.
            let child = Child()
            child.parent = try await container.resolveAsync(Parent.self)
            return child
        }
        let error = await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Parent.self) }
        #expect(error?.kind == .cycle)
        #expect(error?.path.map(\.service) == ["Parent", "Child"])
        #expect(error?.service == "Parent")
    }

    @Test("Graph scope: one instance per top-level async resolve")
    func graph() async throws {
        let container = Container()
        let made = Counter()
        container.register(Service.self) { _ in
            await Task.yield()
            return Service(number: made.increment())
        }
        container.register([Service].self) { r in
            [try await r.resolve(Service.self), try await r.resolve(Service.self)]
        }
        let pair = try await container.resolveAsync([Service].self)
        #expect(pair[0] === pair[1])
        let other = try await container.resolveAsync([Service].self)
        #expect(other[0] !== pair[0])
        #expect(made.count == 2)
    }

    @Test("initCompleted, sync and async, runs once the graph exists; a cycle closes through it")
    func completions() async throws {
        let container = Container()
        container.register(Parent.self) { r in Parent(child: try await r.resolve(Child.self)) }
        container.register(Child.self) { _ in Child() }
            .initCompleted { r, child in child.parent = try await r.resolve(Parent.self) }
        container.register(Warmed.self) { _ in Warmed() }
            .initCompleted { r, warmed in warmed.database = try r.resolve(Database.self, name: "sync") }
        container.register(Database.self, name: "sync") { _ in Database(path: "sync") }
        let parent = try await container.resolveAsync(Parent.self)
        #expect((parent.child as? Child)?.parent === parent)
        #expect(try await container.resolveAsync(Warmed.self).database?.path == "sync")
    }

    @Test("A failing factory or initCompleted caches nothing; the next resolve creates again")
    func failureCachesNothing() async throws {
        let container = Container()
        let calls = Counter()
        let fail = Atomic<Bool>(true)
        container.register(Service.self) { _ in
            calls.increment()
            await Task.yield()
            if fail.load(ordering: .relaxed) { throw Failure() }
            return Service()
        }
        .inScope(.container)
        let error = await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Service.self) }
        #expect(error?.kind == .factoryFailed)
        #expect(error?.description.contains("the database is down") == true)
        fail.store(false, ordering: .relaxed)
        let first = try await container.resolveAsync(Service.self)
        #expect(try await container.resolveAsync(Service.self) === first)
        #expect(calls.count == 2)

        let completed = Container()
        let completions = Counter()
        completed.register(Service.self) { _ in
            await Task.yield(); return Service()
        }
        .inScope(.container)
        .initCompleted { _, _ in
            if completions.increment() == 1 { throw Failure() }
        }
        await #expect(throws: ResolutionError.self) { try await completed.resolveAsync(Service.self) }
        let kept = try await completed.resolveAsync(Service.self)
        #expect(try await completed.resolveAsync(Service.self) === kept)
        #expect(completions.count == 2)
    }

    @Test("A factory throwing CancellationError is reported as cancelled")
    func cancellationError() async {
        let container = Container()
        container.register(Service.self) { _ in
            await Task.yield()
            throw CancellationError()
        }
        let error = await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Service.self) }
        #expect(error?.kind == .cancelled)
    }

    @Test("A resolver kept past its async resolve has expired")
    func expiredResolver() async throws {
        let container = Container()
        let kept = Mutex<AsyncResolution?>(nil)
        container.register(Service.self) { r in
            kept.withLock { $0 = r }
            return Service()
        }
        _ = try await container.resolveAsync(Service.self)
        let resolution = try #require(kept.withLock { $0 })
        let error = await #expect(throws: ResolutionError.self) { try await resolution.resolve(Service.self) }
        #expect(error?.kind == .resolverExpired)
    }

    @Test("resolveAsync resolves sync registrations too, sharing graph instances with async factories")
    func syncFromAsync() async throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.register([Service].self) { r in
            [try await r.resolve(Service.self), try await r.resolve(Service.self)]
        }
        let pair = try await container.resolveAsync([Service].self)
        #expect(pair[0] === pair[1])
        #expect(try await container.resolveAsync(Service.self) !== pair[0])
    }

    @Test("verify() skips async registrations, verifyAsync() checks them")
    func verification() async throws {
        let container = container()
        container.register(Service.self, name: "broken") { r in
            _ = try await r.resolve(Dog.self)
            return Service()
        }
        #expect(throws: Never.self) { try container.verify() }
        let report = await #expect(throws: VerificationReport.self) { try await container.verifyAsync() }
        #expect(report?.problems.map(\.kind) == [.notRegistered])
        #expect(report?.problems.first?.path.map(\.service) == ["Service (name: \"broken\")"])
        // The dry run keeps nothing.
        let fresh = container.localRegistrations
        #expect(fresh.count == 4)
    }
    @Test("Weak scope: an async instance is shared while held, and made again once released")
    func weakScope() async throws {
        let container = Container()
        let made = Counter()
        container.register(Service.self) { _ in
            await Task.yield()
            return Service(number: made.increment())
        }
        .inScope(.weak)
        var held: Service? = try await container.resolveAsync(Service.self)
        #expect(try await container.resolveAsync(Service.self) === held)
        weak let released = held
        held = nil
        #expect(released == nil)
        #expect(try await container.resolveAsync(Service.self).number == 2)
    }

    @Test("resetScopedInstances() lets async singletons go; replacing a registration mid-creation keeps nothing old")
    func resetAndReplace() async throws {
        let container = Container()
        let gate = Gate()
        let made = Counter()
        container.register(Service.self) { _ in
            let number = made.increment()
            if number == 2 { await gate.wait() }
            return Service(number: number)
        }
        .inScope(.container)
        let first = try await container.resolveAsync(Service.self)
        container.resetScopedInstances()
        // The second creation waits at the gate while the registration is replaced.
        let inFlight = Task { try await container.resolveAsync(Service.self) }
        while made.count < 2 { await Task.yield() }
        container.register(Service.self) { _ in
            await Task.yield()
            return Service(number: 100)
        }
        .inScope(.container)
        gate.open()
        #expect(try await inFlight.value.number == 2)
        let replacement = try await container.resolveAsync(Service.self)
        #expect(replacement.number == 100)
        #expect(replacement !== first)
        #expect(try await container.resolveAsync(Service.self) === replacement)
    }

    @Test("A synchronous factory failing inside an async resolve reports the whole path")
    func syncFailureInsideAsync() async {
        let container = Container()
        container.register(Service.self) { _ in throw Failure() }
        container.register([Service].self) { r in [try await r.resolve(Service.self)] }
        let error = await #expect(throws: ResolutionError.self) { try await container.resolveAsync([Service].self) }
        #expect(error?.kind == .factoryFailed)
        #expect(error?.path.map(\.service) == ["Array<Service>", "Service"])
    }
    @Test("A dropped container frees what async resolves kept, also after a failed one")
    func nothingLeaks() async throws {
        weak var weakContainer: Container?
        weak var weakSingleton: Service?
        do {
            let container = Container()
            container.register(Service.self) { _ in
                await Task.yield()
                return Service()
            }
            .inScope(.container)
            container.register(Database.self) { r in
                _ = try await r.resolve(Service.self)
                throw Failure()
            }
            .inScope(.container)
            weakSingleton = try await container.resolveAsync(Service.self)
            await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Database.self) }
            weakContainer = container
        }
        #expect(weakContainer == nil)
        #expect(weakSingleton == nil)
    }
}
