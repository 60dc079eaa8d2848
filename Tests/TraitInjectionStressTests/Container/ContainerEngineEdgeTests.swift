import Dispatch
import Synchronization
import TestFixtures
import Testing
import TraitInjection

/// Where waits, stacks, hand-overs and retries meet: each ends in an instance or a precise error,
/// never a hang, a crash or another resolve's error.
@Suite("Container: the engine's edges end in results or precise errors", .timeLimit(.minutes(10)))
struct ContainerEngineEdgeTests {
    final class Link: Sendable {
        let next: Link?
        init(next: Link?) { self.next = next }
    }

    final class Slow: Sendable {}

    @Test(
        "A synchronous resolve in a task, moved to a helper thread, throws .deadlock for a singleton a task is making")
    func taskChainOnHelperThreadDoesNotBlock() async throws {
        let container = Container()
        let entered = Gate()
        let release = Gate()
        container.register(Slow.self) { _ in
            entered.open()
            _ = waitUntil { release.opened }
            return Slow()
        }
        .inScope(.container)
        container.register(Link.self) { (r, depth: Int) in
            // 16 KiB a link: 1,200 links outgrow any pool thread's stack, and 1,000 levels a thread.
            try usingStack(kilobytes: 16) {
                if depth == 0 { _ = try r.resolve(Slow.self) }
                return Link(next: depth == 0 ? nil : try r.resolve(Link.self, arguments: depth - 1))
            }
        }
        let maker = Task { try await container.resolveAsync(Slow.self) }
        await entered.wait()
        let chain = Task.detached { () -> ResolutionError? in
            do throws(ResolutionError) {
                _ = try container.resolve(Link.self, arguments: 1_200)
                return nil
            } catch {
                return error
            }
        }
        // Blocking, the chain would wait for the maker, and succeed once it is let go: let it go
        // if the chain has not ended within a minute, so that a wrong result fails, not hangs.
        let fallback = OwnThread {
            _ = waitUntil(seconds: 60) { release.opened }
            release.open()
        }
        let error = await chain.value
        release.open()
        await fallback.join()
        #expect(error?.kind == .deadlock)
        _ = try await maker.value
    }

    final class MainLink: Sendable {
        let next: MainLink?
        let isOnMainActor: Bool
        @MainActor init(next: MainLink?) {
            self.next = next
            isOnMainActor = true
        }
    }

    @MainActor
    @Test("A chain of main-actor factories resolved on the main actor ends in .tooDeep when the main stack runs low")
    func mainActorChainOnTheMainActor() throws {
        let container = Container()
        container.register(MainLink.self) { @MainActor (r, depth: Int) in
            try usingStack(kilobytes: 16) {
                MainLink(next: depth == 0 ? nil : try r.resolve(MainLink.self, arguments: depth - 1))
            }
        }
        // Main-actor factories run on the main thread only: about 16 KiB a link, its 8 MiB run out
        // at about 500 links.
        let error = #expect(throws: ResolutionError.self) { try container.resolve(MainLink.self, arguments: 2_000) }
        #expect(error?.kind == .tooDeep)
        // A chain that fits still resolves, every link on the main actor.
        var link: MainLink? = try container.resolve(MainLink.self, arguments: 50)
        var count = 0
        while let current = link {
            #expect(current.isOnMainActor)
            count += 1
            link = current.next
        }
        #expect(count == 51)
    }

    @MainActor
    @Test(
        "Main-actor factories below a chain that moved to a helper thread run while the main stack has room, then .tooDeep"
    )
    func mainActorLinksBelowAHelperHop() throws {
        let container = Container()
        container.register(MainLink.self) { @MainActor (r, depth: Int) in
            try usingStack(kilobytes: 16) {
                MainLink(next: depth == 0 ? nil : try r.resolve(MainLink.self, arguments: depth - 1))
            }
        }
        container.register(Link.self) { (r, depth: Int) in
            try usingStack(kilobytes: 16) {
                if depth == 0 { _ = try r.resolve(MainLink.self, arguments: 2_000) }
                return Link(next: depth == 0 ? nil : try r.resolve(Link.self, arguments: depth - 1))
            }
        }
        // The plain links leave the main thread's stack nearly used up, and go on on a helper
        // thread; the main-actor links at the end can run only on the main thread.
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Link.self, arguments: 800) }
        #expect(error?.kind == .tooDeep)
    }

    @Test("A resolve that hands its singleton over to end a circle of waits succeeds when the receiver fails")
    func giverSucceedsWhenTheReceiverFails() async throws {
        struct Refused: Error {}
        let container = Container()
        let aStarted = Gate()
        let bMade = Gate()
        container.register(Service.self, name: "A") { _ in
            aStarted.open()
            while !bMade.opened { pauseCompat(100) }
            usleepCompat(20_000)
            return Service(number: 1)
        }
        .inScope(.container)
        container.register(Service.self, name: "B") { _ in
            defer { bMade.open() }
            return Service(number: 2)
        }
        .inScope(.container)
        container.register(String.self, name: "AB") { r in
            let a = try r.resolve(Service.self, name: "A")
            // By now the task waits for A, suspended: the thread finds the circle and yields A to it.
            usleepCompat(50_000)
            return "\(a.number)\(try r.resolve(Service.self, name: "B").number)"
        }
        container.register(String.self, name: "BA") { r in
            _ = try r.resolve(Service.self, name: "B")
            _ = try r.resolve(Service.self, name: "A")
            throw Refused()
        }
        let thread = Mutex<Result<String, ResolutionError>?>(nil)
        let other = OwnThread {
            let result = Result { () throws(ResolutionError) in try container.resolve(String.self, name: "AB") }
            thread.withLock { $0 = result }
        }
        await aStarted.wait()
        await #expect(throws: ResolutionError.self) { try await container.resolveAsync(String.self, name: "BA") }
        await other.join()
        #expect(try thread.withLock { $0 }?.get() == "12")
        #expect(try container.resolve(Service.self, name: "A").number == 1)
    }

    /// An argument that counts how often it is compared.
    struct Row: Hashable, Sendable {
        static let comparisons = Atomic<Int>(0)
        let number: Int
        static func == (lhs: Row, rhs: Row) -> Bool {
            comparisons.add(1, ordering: .relaxed)
            return lhs.number == rhs.number
        }
        func hash(into hasher: inout Hasher) { hasher.combine(number) }
    }

    final class Cell: Sendable {
        let row: Row
        init(_ row: Row) { self.row = row }
    }

    final class Sheet: Sendable {
        let cells: [Cell]
        init(_ cells: [Cell]) { self.cells = cells }
    }

    @Test("A resolve making 2,000 .graph instances with arguments finds each by its hash, not by comparing with all")
    func graphInstancesByHashedArguments() throws {
        let container = Container()
        container.register(Cell.self) { (_, row: Row) in Cell(row) }
        container.register(Sheet.self) { r in
            let cells = try (0..<2_000).map { try r.resolve(Cell.self, arguments: Row(number: $0)) }
            // Asked again, each row's instance is the one made for it.
            for cell in cells.prefix(10) { #expect(try r.resolve(Cell.self, arguments: cell.row) === cell) }
            return Sheet(cells)
        }
        let before = Row.comparisons.load(ordering: .relaxed)
        let sheet = try container.resolve(Sheet.self)
        let comparisons = Row.comparisons.load(ordering: .relaxed) - before
        #expect(Set(sheet.cells.map(\.row.number)).count == 2_000)
        // Compared with all earlier rows, it would be about 2 million; by hash, one per match.
        #expect(comparisons < 2_000, "\(comparisons) comparisons")
    }

    final class Part: Sendable {}
    final class Whole: Sendable {}

    @Test(
        "A synchronous factory in an async resolve that unwinds to wait runs again: the first run's transients are not completed"
    )
    func unwoundFactorysTransientsAreNotCompleted() async throws {
        let container = Container()
        let claimed = Gate()
        let unwound = Gate()
        let runs = Counter()
        let completions = Counter()
        container.register(Slow.self) { _ in
            claimed.open()
            while !unwound.opened { pauseCompat(1_000) }
            return Slow()
        }
        .inScope(.container)
        container.register(Part.self) { _ in Part() }
            .inScope(.transient)
            .initCompleted { _, _ in completions.increment() }
        container.register(Whole.self) { r in
            runs.increment()
            _ = try r.resolve(Part.self)
            do {
                _ = try r.resolve(Slow.self)
            } catch {
                // Slow is being made on the thread: the factory unwinds, to run again once it is.
                unwound.open()
                throw error
            }
            return Whole()
        }
        let thread = OwnThread { _ = try? container.resolve(Slow.self) }
        await claimed.wait()
        _ = try await container.resolveAsync(Whole.self)
        await thread.join()
        #expect(runs.count == 2)
        #expect(completions.count == 1)
    }

    final class ViewModel: Sendable {
        @MainActor init() {}
    }

    final class Screen: Sendable {
        let model: ViewModel
        init(_ model: ViewModel) { self.model = model }
    }

    @MainActor
    @Test(
        "The main actor resolving a main-actor singleton a task's resolve has made, not yet completed, completes it and gets it; so does the task"
    )
    func mainActorGetsTheSingletonATaskIsMaking() async throws {
        let container = Container()
        let made = Counter()
        let completed = Counter()
        let hasModel = Gate()
        let release = Gate()
        container.register(ViewModel.self) { @MainActor _ in
            made.increment()
            return ViewModel()
        }
        .inScope(.container)
        .initCompleted { _, _ in completed.increment() }
        container.register(Screen.self) { r async throws in
            // Made on the main actor; its completion waits for the end of this resolve.
            let model = try await r.resolve(ViewModel.self)
            hasModel.open()
            await release.wait()
            return Screen(model)
        }
        let task = Task.detached { try await container.resolveAsync(Screen.self) }
        await hasModel.wait()
        let model = try container.resolve(ViewModel.self)
        #expect(completed.count == 1)
        release.open()
        #expect(try await task.value.model === model)
        #expect(made.count == 1)
        #expect(completed.count == 1)
    }

    /// Holds the one port: a second is refused while the first is alive.
    final class Port: Sendable {
        static let held = Atomic<Bool>(false)
        init?() {
            guard Port.held.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
            else { return nil }
        }
        deinit { Port.held.store(false, ordering: .releasing) }
    }

    struct PortInUse: Error {}

    @Test("An async resolve's synchronous part that runs again has let go of what its first run made")
    func runAgainLetsGoOfTheFirstRun() async throws {
        final class Busy: Sendable {}
        let container = Container()
        let claimed = Gate()
        let release = Gate()
        let runs = Counter()
        container.register(Busy.self) { _ in
            claimed.open()
            // No deadline: run 1 opens it whenever the resolve gets a thread, however busy the
            // machine (a deadline could let Busy be made before run 1 asks for it).
            while !release.opened { pauseCompat(100) }
            return Busy()
        }
        .inScope(.container)
        // Run 1 catches the unwinding (Busy is being made on the thread) and returns a port it
        // will not be used for; run 2, after the wait, needs the port again.
        container.register(Port.self) { r in
            runs.increment()
            if (try? r.resolve(Busy.self)) == nil { release.open() }
            guard let port = Port() else { throw PortInUse() }
            return port
        }
        .initCompleted { _, _ in await Task.yield() }
        let thread = OwnThread { _ = try? container.resolve(Busy.self) }
        await claimed.wait()
        let port = try await container.resolveAsync(Port.self)
        await thread.join()
        #expect(runs.count == 2)
        withExtendedLifetime(port) {}
    }
}

/// A factory's resolver used inside a top-level resolve nested in its own (its top-level resolve
/// lasts, and this is its thread): what it makes there is the outer resolve's.
@Suite("Container: a resolver used inside a nested top-level resolve")
struct ContainerOuterResolverTests {
    final class Shared: Sendable {}
    final class Marker: Sendable {}
    final class Pair: Sendable {
        let first: Shared
        let second: Shared
        init(_ first: Shared, _ second: Shared) {
            self.first = first
            self.second = second
        }
    }
    /// Used by one thread, the resolve's.
    final class Kept: @unchecked Sendable {
        var resolution: Resolution?
        var inner: Resolution?
        var seen: [Shared] = []
    }

    @Test("A .graph instance made through the outer resolver inside a nested resolve stays in the outer graph")
    func outerGraphInstanceOutlivesTheNestedResolve() throws {
        let container = Container()
        let kept = Kept()
        container.register(Shared.self) { _ in Shared() }
        container.register(Marker.self) { _ in
            kept.seen.append(try kept.resolution!.resolve(Shared.self))
            return Marker()
        }
        container.register(Pair.self) { r in
            kept.resolution = r
            _ = try container.resolve(Marker.self)
            return Pair(kept.seen[0], try r.resolve(Shared.self))
        }
        let pair = try container.resolve(Pair.self)
        #expect(pair.first === pair.second)
    }

    @Test("The resolver of a factory the outer resolver ran inside a nested resolve stays valid after it")
    func outerFramesResolverOutlivesTheNestedResolve() throws {
        let container = Container()
        let kept = Kept()
        container.register(Shared.self) { _ in Shared() }
        container.register(Marker.self) { r in
            kept.inner = r
            return Marker()
        }
        container.register(Pair.self) { r in
            kept.resolution = r
            // The nested resolve makes Marker through the outer resolver: Marker's frame is the
            // outer resolve's, and so is its resolver, which lasts as long as it does.
            _ = try container.resolve(String.self)
            let first = try kept.inner!.resolve(Shared.self)
            return Pair(first, try r.resolve(Shared.self))
        }
        container.register(String.self) { _ in
            _ = try kept.resolution!.resolve(Marker.self)
            return "nested"
        }
        let pair = try container.resolve(Pair.self)
        #expect(pair.first === pair.second)
    }
}
