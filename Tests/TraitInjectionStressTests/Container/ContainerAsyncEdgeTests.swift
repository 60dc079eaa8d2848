import Foundation
import Synchronization
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

/// The adversarial review of async resolution (issue 16): each finding, as a test that failed
/// before its fix.
@Suite("Container: async resolution at its edges: unawaited tasks, resets, expired resolvers", .timeLimit(.minutes(10)))
struct ContainerAsyncEdgeTests {
    /// A service with a sync `initCompleted` and an `@Inject` property, made by an async factory.
    final class Screen: @unchecked Sendable {
        let logger: Logger
        var completedWith: Logger?
        @Inject var injected: Logger

        init(logger: Logger) { self.logger = logger }
    }

    final class Logger: @unchecked Sendable {}

    final class Repository: @unchecked Sendable {
        let logger: Logger
        init(logger: Logger) { self.logger = logger }
    }

    final class Root: @unchecked Sendable {
        let logger: Logger
        let repository: Repository
        init(logger: Logger, repository: Repository) {
            self.logger = logger
            self.repository = repository
        }
    }

    /// Keeps the resolver its factory got.
    final class KeepsResolver: Sendable {
        let resolver: AsyncResolution
        init(resolver: AsyncResolution) { self.resolver = resolver }
    }

    final class Session: Sendable {
        let user: String
        init(user: String) { self.user = user }
    }

    @MainActor
    final class Model {
        let number: Int
        init(number: Int) { self.number = number }
    }

    @Test("A task a factory starts and does not await resolves as part of the resolve, which waits for it")
    func unstructuredTaskInFactory() async throws {
        let container = Container()
        let completed = Counter()
        let entered = Gate()
        container.register(Service.self) { _ in
            entered.open()
            try await Task.sleep(for: .milliseconds(50))
            return Service()
        }
        .inScope(.container)
        .initCompleted { _, _ in completed.increment() }
        let background = Mutex<Task<Service?, Never>?>(nil)
        container.register(Session.self) { _ in
            // Warms the cache in the background, and does not wait for it to finish.
            background.withLock { $0 = Task { try? await container.resolveAsync(Service.self) } }
            await entered.wait()
            return Session(user: "alice")
        }
        .inScope(.container)
        _ = try await container.resolveAsync(Session.self)
        let warmed = try #require(await background.withLock { $0 }?.value)
        // It came back completed, and it is kept: the next resolve neither hangs nor makes another.
        #expect(completed.count == 1)
        #expect(try await container.resolveAsync(Service.self) === warmed)
        #expect(completed.count == 1)
    }

    @Test("A reset while an async singleton is being made keeps nothing made from the old state")
    func resetDuringCreation() async throws {
        let container = Container()
        let user = Mutex("alice")
        let reading = Gate()
        let resetDone = Gate()
        container.register(Session.self) { _ in
            let name = user.withLock { $0 }
            reading.open()
            await resetDone.wait()
            return Session(user: name)
        }
        .inScope(.container)
        let creation = Task { try await container.resolveAsync(Session.self) }
        await reading.wait()
        user.withLock { $0 = "bob" }
        container.resetScopedInstances()
        resetDone.open()
        #expect(try await creation.value.user == "alice")
        #expect(try await container.resolveAsync(Session.self).user == "bob")
    }

    @Test("In an async resolve, sync completions, @Inject and sync dependencies share the graph")
    func graphSharedWithSyncParts() async throws {
        let container = Container()
        container.register(Logger.self) { _ in Logger() }
        container.register(Screen.self) { r in Screen(logger: try await r.resolve(Logger.self)) }
            .initCompleted { r, screen in screen.completedWith = try r.resolve(Logger.self) }
        container.register(Repository.self) { r in Repository(logger: try r.resolve(Logger.self)) }
        container.register(Root.self) { r in
            Root(logger: try await r.resolve(Logger.self), repository: try await r.resolve(Repository.self))
        }
        let screen = try await container.resolveAsync(Screen.self)
        #expect(screen.completedWith === screen.logger)
        #expect(screen.injected === screen.logger)
        let root = try await container.resolveAsync(Root.self)
        #expect(root.repository.logger === root.logger)
    }

    @Test("A shared instance keeping its async resolver does not keep its container")
    func keptResolverDoesNotLeak() async throws {
        weak var weakContainer: Container?
        weak var weakInstance: KeepsResolver?
        do {
            let container = Container()
            container.register(KeepsResolver.self) { r in
                await Task.yield()
                return KeepsResolver(resolver: r)
            }
            .inScope(.container)
            let kept = try await container.resolveAsync(KeepsResolver.self)
            let error = await #expect(throws: ResolutionError.self) { try await kept.resolver.resolve(Service.self) }
            #expect(error?.kind == .resolverExpired)
            weakInstance = kept
            weakContainer = container
        }
        #expect(weakContainer == nil)
        #expect(weakInstance == nil)
    }

    @Test("verifyAsync off the main actor keeps no main-actor singleton")
    func verifyAsyncKeepsNothing() async throws {
        let container = Container()
        let made = Counter()
        container.register(Model.self) { @MainActor _ in Model(number: made.increment()) }.inScope(.container)
        _ = try await Task.detached { try await container.verifyAsync() }.value
        #expect(made.count == 1)
        let model = try await Task.detached { try await container.resolveAsync(Model.self) }.value
        #expect(made.count == 2)
        #expect(model.number == 2)
    }

    @Test("Async resolves racing a thread that swaps a service between main-actor and async registrations each get one")
    func resolvesRacingMainActorAsyncSwaps() async throws {
        let container = Container()
        container.register(Model.self) { @MainActor _ in Model(number: 1) }
        let stop = Atomic(false)
        let swaps = Counter()
        let swapper = Thread {
            while !stop.load(ordering: .acquiring) {
                container.register(Model.self) { (_: AsyncResolution) async in await Model(number: 2) }
                container.register(Model.self) { @MainActor _ in Model(number: 1) }
                swaps.increment()
            }
        }
        swapper.start()
        // A hop read the registration once to see whether it was replaced and once to resolve it:
        // a swap between the two threw needsAsyncResolve (129 of 61,000 resolves in review).
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var failures = 0
                    for _ in 0..<1_000 {
                        do {
                            let number = try await container.resolveAsync(Model.self).number
                            if number != 1, number != 2 { failures += 1 }
                        } catch {
                            failures += 1
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        stop.store(true, ordering: .releasing)
        #expect(failures == 0)
        #expect(swaps.count > 0)
    }

    @Test("resolveAsync of T? resolves T, as resolve does")
    func optionalService() async throws {
        let container = Container()
        container.register(Service.self) { _ in
            await Task.yield()
            return Service(number: 3)
        }
        let optional = try await container.resolveAsync(Service?.self)
        #expect(optional?.number == 3)
    }
    // MARK: Second round

    /// A task a factory starts and does not await, and the error its resolve ended with.
    final class Background: Sendable {
        private let task = Mutex<Task<ResolutionError?, Never>?>(nil)

        func start(_ resolve: @escaping @Sendable () async throws(ResolutionError) -> Void) {
            task.withLock {
                $0 = Task {
                    do throws(ResolutionError) {
                        try await resolve()
                        return nil
                    } catch {
                        return error
                    }
                }
            }
        }

        var error: ResolutionError? {
            get async { await task.withLock { $0 }?.value }
        }
    }

    /// A service whose `initCompleted` closure has run, or not.
    final class Completable: @unchecked Sendable {
        var isComplete = false
    }

    @Test("A factory's resolver used by a task it did not await, after the resolve: an error, nothing kept, no hang")
    func resolverInTaskAfterTheResolve() async throws {
        let container = Container()
        let resolveAsked = Gate()
        let resolveReturned = Gate()
        container.register(Completable.self) { _ in
            resolveAsked.open()
            await resolveReturned.wait()
            return Completable()
        }
        .inScope(.container)
        .initCompleted { _, completable in completable.isComplete = true }
        let background = Background()
        container.register(Session.self) { r in
            background.start { () async throws(ResolutionError) in _ = try await r.resolve(Completable.self) }
            await resolveAsked.wait()
            return Session(user: "alice")
        }
        _ = try await container.resolveAsync(Session.self)
        resolveReturned.open()
        let error = await background.error
        #expect(error?.kind == .resolverExpired)
        // Nothing half-made was kept: a new resolve makes a completed instance.
        #expect(try await container.resolveAsync(Completable.self).isComplete)
    }

    @Test("A failed resolve's task that fails later reports its path without touching freed registrations")
    func lateFailureAfterAFailedResolve() async throws {
        let container = Container()
        let started = Gate()
        let failLater = Gate()
        container.register(Completable.self) { _ in
            started.open()
            await failLater.wait()
            throw Failure()
        }
        let background = Background()
        container.register(Session.self) { r in
            background.start { () async throws(ResolutionError) in _ = try await r.resolve(Completable.self) }
            await started.wait()
            throw Failure()
        }
        await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Session.self) }
        // The registration whose factory started the task is replaced, and freed.
        container.register(Session.self) { _ in Session(user: "bob") }
        failLater.open()
        let error = await background.error
        #expect(error?.kind == .factoryFailed)
        #expect(error?.path.map(\.service) == ["Session", "Completable"])
    }

    @Test("A factory that waits for work finishing only after its resolve returned does not hang it")
    func resolveDoesNotWaitForTasksItDidNotAwait() async throws {
        let container = Container()
        let returned = Gate()
        container.register(Logger.self) { _ in
            await returned.wait()
            return Logger()
        }
        container.register(Session.self) { r in
            Task { _ = try? await r.resolve(Logger.self) }
            await Task.yield()
            return Session(user: "alice")
        }
        _ = try await container.resolveAsync(Session.self)
        returned.open()
    }

    @Test("A singleton made in a resolveAsync inside a factory, by a task it did not await, is kept only completed")
    func joinedScopeKeepsOnlyCompleted() async throws {
        let container = Container()
        let entered = Gate()
        let release = Gate()
        container.register(Completable.self) { _ in
            entered.open()
            await release.wait()
            return Completable()
        }
        .inScope(.container)
        .initCompleted { _, completable in completable.isComplete = true }
        let background = Mutex<Task<Void, Never>?>(nil)
        container.register(Logger.self) { r in
            background.withLock { $0 = Task { _ = try? await r.resolve(Completable.self) } }
            await entered.wait()
            return Logger()
        }
        container.register(Session.self) { _ in
            _ = try await container.resolveAsync(Logger.self)
            return Session(user: "alice")
        }
        _ = try await container.resolveAsync(Session.self)
        release.open()
        await background.withLock { $0 }?.value
        #expect(try await container.resolveAsync(Completable.self).isComplete)
    }

    @Test("An initCompleted closure that closes a cycle back to the graph resolves, as in a sync resolve")
    func completionClosesACycle() async throws {
        let container = Container()
        let closed = Mutex(false)
        container.register(Parent.self) { r in Parent(child: try await r.resolve(Child.self)) }
        container.register(Child.self) { _ in
            await Task.yield()
            return Child()
        }
        .initCompleted { r, child in
            let parent = try await r.resolve(Parent.self)
            child.parent = parent
            // The parent was made with this very child, found in the graph.
            closed.withLock { $0 = (parent.child as? Child) === child }
        }
        _ = try await container.resolveAsync(Child.self)
        #expect(closed.withLock { $0 })
    }

    @Test("Child containers made and dropped inside a factory each give their own graph instance")
    func childContainersInAFactory() async throws {
        let container = Container()
        container.register([String].self) { _ in
            var names: [String] = []
            for name in ["a", "b", "c", "d"] {
                let child = Container(parent: container)
                child.register(String.self) { _ in
                    await Task.yield()
                    return name
                }
                names.append(try await child.resolveAsync(String.self))
            }
            return names
        }
        #expect(try await container.resolveAsync([String].self) == ["a", "b", "c", "d"])
    }
    // MARK: Third round

    @Test("An instance another task of the resolve is completing reaches this one only completed, or not at all")
    func incompleteInstanceOfAnotherScope() async throws {
        let container = Container()
        let completing = Gate()
        let release = Gate()
        let completions = Counter()
        container.register(Completable.self) { _ in Completable() }
            .inScope(.container)
            .initCompleted { _, completable in
                completing.open()
                await release.wait()
                if completions.increment() == 1 { throw Failure() }
                completable.isComplete = true
            }
        let got = Mutex<Completable?>(nil)
        container.register(Repository.self) { r in
            // Made in the scope of this resolveAsync, whose completion then waits.
            async let first = try? container.resolveAsync(Completable.self)
            await completing.wait()
            Task {
                try await Task.sleep(for: .milliseconds(50))
                release.open()
            }
            // Waits for that completion (a sibling task's, not on this path): it fails, and this
            // resolve makes the instance itself, completed when this resolve ends.
            let completable = try await r.resolve(Completable.self)
            got.withLock { $0 = completable }
            _ = await first
            return Repository(logger: Logger())
        }
        _ = try await container.resolveAsync(Repository.self)
        let completable = try await container.resolveAsync(Completable.self)
        #expect(completable.isComplete)
        #expect(got.withLock { $0 } === completable)
        #expect(completions.count == 2)
    }

    @Test("A resolveAsync in a task a failed resolve did not await stands alone: it completes and keeps its instance")
    func joinedCallAfterItsResolveFailed() async throws {
        let container = Container()
        let entered = Gate()
        let release = Gate()
        let made = Counter()
        container.register(Completable.self) { _ in
            made.increment()
            return Completable()
        }
        .inScope(.container)
        .initCompleted { _, completable in
            entered.open()
            await release.wait()
            completable.isComplete = true
        }
        let background = Background()
        container.register(Session.self) { _ in
            background.start { () async throws(ResolutionError) in
                _ = try await container.resolveAsync(Completable.self)
            }
            await entered.wait()
            throw Failure()
        }
        await #expect(throws: ResolutionError.self) { try await container.resolveAsync(Session.self) }
        release.open()
        let error = await background.error
        #expect(error == nil)
        #expect(try await container.resolveAsync(Completable.self).isComplete)
        #expect(made.count == 1)
    }

    @Test("A completion queued too late does not keep the container alive")
    func lateCompletionDoesNotLeak() async throws {
        weak var weakContainer: Container?
        let release = Gate()
        let background = Mutex<Task<Void, Never>?>(nil)
        do {
            let container = Container()
            container.register(Completable.self) { _ in
                await release.wait()
                return Completable()
            }
            .initCompleted { _, completable in completable.isComplete = true }
            container.register(KeepsResolver.self) { r in
                background.withLock { $0 = Task { _ = try? await r.resolve(Completable.self) } }
                await Task.yield()
                return KeepsResolver(resolver: r)
            }
            .inScope(.container)
            _ = try await container.resolveAsync(KeepsResolver.self)
            weakContainer = container
        }
        release.open()
        await background.withLock { $0 }?.value
        #expect(weakContainer == nil)
    }
}
