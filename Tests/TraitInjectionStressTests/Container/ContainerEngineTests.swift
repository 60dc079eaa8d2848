import Dispatch
import Synchronization
import TestFixtures
import Testing
import TraitInjection

/// The seven behaviours issue 26 fixed where the old synchronous and async engines met, each a
/// test that failed on the code before it (`0e8d12f`).
@Suite("Container: one engine for sync and async resolves", .timeLimit(.minutes(10)))
struct ContainerEngineTests {
    final class Thing: @unchecked Sendable {
        let generation: Int
        var completed = false
        init(_ generation: Int) { self.generation = generation }
    }

    @Test("Each refinement replaces the registration whole: another thread sees it before or after one")
    func replacementIsSeenWhole() throws {
        let container = Container()
        container.register(Thing.self) { _ in Thing(0) }
        let midStatement = Mutex<Thing?>(nil)
        /// Resolves on another thread in the middle of the statement that replaces the
        /// registration (after `inScope`, before `initCompleted`), and returns the completion.
        func resolvingElsewhere() -> @Sendable (Resolution, Thing) throws -> Void {
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                midStatement.withLock { $0 = try? container.resolve(Thing.self) }
                done.signal()
            }
            done.wait()
            return { _, thing in thing.completed = true }
        }
        container.register(Thing.self) { _ in Thing(1) }.inScope(.container).initCompleted(resolvingElsewhere())
        // The registration with its scope, before its completion: a singleton made then…
        let early = try #require(midStatement.withLock { $0 })
        #expect(early.generation == 1 && !early.completed)
        // …is not kept by the registration the completion refined.
        let thing = try container.resolve(Thing.self)
        #expect(thing !== early)
        #expect(thing.generation == 1)
        #expect(thing.completed)
        #expect(try container.resolve(Thing.self) === thing)
    }

    @Test("A shared instance is one for sync and async resolves: an async initCompleted makes no second")
    func oneInstanceForSyncAndAsync() async throws {
        let container = Container()
        let made = Counter()
        do {
            // Refined in steps through a variable: it takes effect as a whole when the variable goes.
            let registration = container.register(Service.self) { _ in Service(number: made.increment()) }
                .inScope(.container)
            registration.initCompleted { _, _ in await Task.yield() }
        }
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Service.self) }
        #expect(error?.kind == .needsAsyncResolve)
        let first = try await container.resolveAsync(Service.self)
        // Once made, every resolve gets it, synchronous ones too.
        #expect(try container.resolve(Service.self) === first)
        #expect(try await container.resolveAsync(Service.self) === first)
        #expect(made.count == 1)
    }

    @Test("A synchronous factory in an async resolve waits for another thread's singleton by suspending")
    func synchronousPartSuspends() async throws {
        let container = Container()
        let creating = Gate()
        let released = Gate()
        container.register(Service.self, name: "slow") { _ in
            creating.open()
            // The thread making it waits for a task: the cooperative pool must not be blocked.
            while !released.opened { pauseCompat(100) }
            return Service()
        }
        .inScope(.container)
        container.register(Int.self) { r in try r.resolve(Service.self, name: "slow").number + 1 }
        let creator = OwnThread { _ = try? container.resolve(Service.self, name: "slow") }
        await creating.wait()
        // More tasks than the pool has threads, each needing it through a synchronous factory:
        // blocking their threads, they would leave none to this task, which lets the thread
        // finish, and the test would hang (however busy the machine, it ends if they suspend).
        async let numbers = inTasks(8) { _ in try? await container.resolveAsync(Int.self) }
        try await Task.sleep(for: .milliseconds(50))
        released.open()
        #expect(await numbers.allSatisfy { $0 == 1 })
        await creator.join()
    }

    /// Registers two `.container` services, "A" and "B", whose factories take 2 ms and count in
    /// `made`.
    static func registerSlowSingletons(in container: Container, counting made: Counter) {
        for name in ["A", "B"] {
            container.register(Service.self, name: name) { _ in
                made.increment()
                usleepCompat(2_000)
                return Service()
            }
            .inScope(.container)
        }
    }

    @Test("A thread and a task taking two singletons in opposite orders both succeed, each made once")
    func oppositeOrdersThreadAndTask() async throws {
        for _ in 0..<10 {
            let container = Container()
            let made = Counter()
            Self.registerSlowSingletons(in: container, counting: made)
            container.register(String.self, name: "AB") { r in
                "\(try r.resolve(Service.self, name: "A").number)\(try r.resolve(Service.self, name: "B").number)"
            }
            container.register(String.self, name: "BA") { r in
                "\(try r.resolve(Service.self, name: "B").number)\(try r.resolve(Service.self, name: "A").number)"
            }
            let thread = Mutex<String?>(nil)
            let other = OwnThread { thread.withLock { $0 = try? container.resolve(String.self, name: "AB") } }
            let task = try await container.resolveAsync(String.self, name: "BA")
            await other.join()
            #expect(thread.withLock { $0 } != nil)
            #expect(task == "00")
            #expect(made.count == 2)
        }
    }

    @Test("A thread that hands its singleton to a suspended task to end a deadlock wakes that task")
    func handOverWakesTheSuspendedTask() async throws {
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
            "\(try r.resolve(Service.self, name: "B").number)\(try r.resolve(Service.self, name: "A").number)"
        }
        let thread = Mutex<String?>(nil)
        let other = OwnThread { thread.withLock { $0 = try? container.resolve(String.self, name: "AB") } }
        await aStarted.wait()
        #expect(try await container.resolveAsync(String.self, name: "BA") == "21")
        await other.join()
        #expect(thread.withLock { $0 } == "12")
    }

    final class Model: Sendable {
        let isOnMainActor: Bool
        @MainActor init() { isOnMainActor = true }
    }

    final class Link: Sendable {
        let next: Link?
        let model: Model?
        /// The thread its factory ran on.
        let thread = currentThreadID
        init(next: Link?, model: Model?) {
            self.next = next
            self.model = model
        }
    }

    @MainActor
    @Test("A deep chain resolved on the main actor keeps it: a main-actor factory at its end runs there")
    func deepChainOnTheMainActor() throws {
        let container = Container()
        container.register(Model.self) { @MainActor _ in Model() }
        container.register(Link.self) { (r, depth: Int) in
            // Each link takes stack enough that the chain outgrows the main actor's thread.
            try usingStack(kilobytes: 16) {
                depth == 0
                    ? Link(next: nil, model: try r.resolve(Model.self))
                    : Link(next: try r.resolve(Link.self, arguments: depth - 1), model: nil)
            }
        }
        // About 16 KiB a link: the main thread's 8 MiB run out after about 500.
        let top = try container.resolve(Link.self, arguments: 800)
        var link = top
        while let next = link.next { link = next }
        #expect(link.thread != top.thread)  // The chain left the main actor's thread…
        #expect(link.model?.isOnMainActor == true)  // …and came back for the main-actor factory.
    }

    @MainActor
    @Test(
        "Main-actor code resolving a main-actor singleton while an async resolve completes it gets it, or deadlock at once; its initCompleted runs once, on the main actor"
    )
    func mainActorResolvesWhileAnAsyncResolveCompletes() async throws {
        // The main queue, which runs the main actor, is not always drained by one thread on Linux.
        let mainQueue = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: mainQueue, value: 1)
        for _ in 0..<200 {
            let container = Container()
            let resolved = Gate()
            let otherErrors = Counter()
            let completions = Counter()
            let offMain = Counter()
            container.register(Model.self) { @MainActor _ in
                // Queued behind this factory's job: the async resolve reaches the model's completion
                // about now. Before it begins, this takes the model over and runs the completion
                // itself; while it waits for the main actor or runs, this is refused.
                DispatchQueue.main.async {
                    do throws(ResolutionError) {
                        _ = try container.resolve(Model.self)
                    } catch {
                        if error.kind != .deadlock { otherErrors.increment() }
                    }
                    resolved.open()
                }
                return Model()
            }
            .inScope(.container)
            .initCompleted { _, _ in
                completions.increment()
                if DispatchQueue.getSpecific(key: mainQueue) == nil { offMain.increment() }
            }
            // Before, a take-over just as the task took the completion from its queue lost it:
            // this failed with "the resolve it was handed to, to end a deadlock, failed".
            let model = try await Task.detached { try await container.resolveAsync(Model.self) }.value
            await resolved.wait()
            #expect(model === (try container.resolve(Model.self)))
            #expect(otherErrors.count == 0)
            #expect(completions.count == 1)
            #expect(offMain.count == 0)
        }
    }

    @MainActor
    @Test(
        "Main-actor code that resolves a main-actor singleton right after an async resolve ran its initCompleted gets it"
    )
    func mainActorResolvesRightAfterTheCompletion() async throws {
        for _ in 0..<200 {
            let container = Container()
            let resolved = Gate()
            let failures = Counter()
            container.register(Model.self) { @MainActor _ in Model() }
                .inScope(.container)
                .initCompleted { _, _ in
                    // Queued behind the completion's run on the main actor: the task has yet to end it.
                    DispatchQueue.main.async {
                        if (try? container.resolve(Model.self)) == nil { failures.increment() }
                        resolved.open()
                    }
                }
            let model = try await Task.detached { try await container.resolveAsync(Model.self) }.value
            await resolved.wait()
            #expect(model === (try container.resolve(Model.self)))
            #expect(failures.count == 0)
        }
    }

    @MainActor
    @Test(
        "A main-actor singleton's initCompleted that waits between two runs stays with its async resolve: the main thread is refused, not handed it"
    )
    func aCompletionBetweenTwoRunsIsNotTakenOver() async throws {
        let container = Container()
        let made = Counter()
        let runs = Counter()
        let inputStarted = Gate()
        // Its maker blocks its thread, without spinning (the machine may have two cores, and other
        // tests), until the completion's first run has begun, however long the async resolve takes
        // to start; then until this test lets it go — or, should the main thread wait for it below
        // (it must not), for a minute: a wrong result fails the test, it does not hang.
        let firstRun = DispatchSemaphore(value: 0)
        let inputMayEnd = DispatchSemaphore(value: 0)
        container.register(Service.self) { _ in
            inputStarted.open()
            firstRun.wait()
            _ = inputMayEnd.wait(timeout: .now() + 60)
            return Service(number: 7)
        }
        .inScope(.container)
        container.register(Model.self) { @MainActor _ in
            made.increment()
            return Model()
        }
        .inScope(.container)
        .initCompleted { r, _ in
            if runs.increment() == 1 { firstRun.signal() }
            // Another thread is making it: the first run unwinds to wait, and runs again after.
            _ = try r.resolve(Service.self)
        }
        // Made on a thread of its own: no pool thread is held while this test waits.
        let input = Mutex<Int?>(nil)
        let inputThread = OwnThread { input.withLock { $0 = try? container.resolve(Service.self).number } }
        await inputStarted.wait()
        let model = Task.detached { try await container.resolveAsync(Model.self) }
        while runs.count == 0 { try await Task.sleep(for: .milliseconds(1)) }
        // The first run has unwound to wait: taking the model over here would run the completion
        // on this thread, which may not wait for what an async resolve makes.
        let error = #expect(throws: ResolutionError.self) { try container.resolve(Model.self) }
        #expect(error?.kind == .deadlock)
        inputMayEnd.signal()
        await inputThread.join()
        #expect(input.withLock { $0 } == 7)
        let instance = try await model.value
        #expect(instance === (try container.resolve(Model.self)))
        #expect(made.count == 1)
        #expect(runs.count == 2)
    }

    @MainActor
    @Test(
        "A main-actor singleton's initCompleted that throws where the main thread took it over fails the async resolve with its error"
    )
    func aTakenOverCompletionThrowsItsError() async throws {
        struct Broken: Error {}
        for _ in 0..<50 {
            let container = Container()
            let resolved = Gate()
            container.register(Model.self) { @MainActor _ in
                DispatchQueue.main.async {
                    _ = try? container.resolve(Model.self)
                    resolved.open()
                }
                return Model()
            }
            .inScope(.container)
            .initCompleted { _, _ in throw Broken() }
            let error = await #expect(throws: ResolutionError.self) {
                try await Task.detached { try await container.resolveAsync(Model.self) }.value
            }
            await resolved.wait()
            #expect(error?.description.contains("Broken") == true)
        }
    }

    final class Token: Sendable {}

    @Test(
        "A singleton's initCompleted in a nested resolve that unwinds to wait, then runs again, leaves nothing behind"
    )
    func anUnwoundCompletionLeavesNothingBehind() async throws {
        weak var weakToken: Token?
        weak var weakContainer: Container?
        do {
            let token = Token()
            weakToken = token
            let container = Container()
            weakContainer = container
            let inputStarted = Gate()
            // Its maker blocks its thread, without spinning, until this test lets it go, once the
            // completion's first run has begun (however long the async resolve takes to start). A
            // first run that blocked instead of unwinding would end then too: the test fails, it
            // does not hang.
            let inputMayEnd = DispatchSemaphore(value: 0)
            let runs = Counter()
            container.register(Service.self) { _ in
                inputStarted.open()
                inputMayEnd.wait()
                return Service(number: 3)
            }
            .inScope(.container)
            container.register(Thing.self) { _ in Thing(1) }
                .inScope(.container)
                .initCompleted { r, _ in
                    withExtendedLifetime(token) {}
                    runs.increment()
                    // A thread makes it: the first run unwinds with the async resolve's part.
                    _ = try r.resolve(Service.self)
                }
            container.register(String.self) { [unowned container] _ in
                // A nested resolve in an async resolve's synchronous part.
                "\(try container.resolve(Thing.self).generation)"
            }
            let input = OwnThread { _ = try? container.resolve(Service.self) }
            await inputStarted.wait()
            let resolved = Task.detached { try await container.resolveAsync(String.self) }
            while runs.count == 0 { try await Task.sleep(for: .milliseconds(1)) }
            inputMayEnd.signal()
            #expect(try await resolved.value == "1")
            await input.join()
            #expect(runs.count == 2)
        }
        // Before, the unwinding's error, kept for the resolve that had handed the singleton over,
        // held the frames that held the singleton's creation: all of it stayed.
        #expect(weakToken == nil)
        #expect(weakContainer == nil)
    }

    final class Completing: @unchecked Sendable {
        var other: Completing?
    }

    @Test("Singletons taken in opposite orders, or completing each other, from two threads: each made once")
    func exactlyOnceFromBothEnds() throws {
        for _ in 0..<20 {
            let container = Container()
            let made = Counter()
            Self.registerSlowSingletons(in: container, counting: made)
            for name in ["A", "B"] {
                container.register(String.self, name: name) { r in
                    let first = try r.resolve(Service.self, name: name)
                    let second = try r.resolve(Service.self, name: name == "A" ? "B" : "A")
                    return "\(ObjectIdentifier(first).hashValue)-\(ObjectIdentifier(second).hashValue)"
                }
            }
            let failures = Counter()
            onThreads(2) { thread in
                if (try? container.resolve(String.self, name: thread == 0 ? "A" : "B")) == nil { failures.increment() }
            }
            #expect(failures.count == 0)
            #expect(made.count == 2)
        }
        for _ in 0..<20 {
            let container = Container()
            let made = Counter()
            for name in ["A", "B"] {
                container.register(Completing.self, name: name) { _ in
                    made.increment()
                    usleepCompat(2_000)
                    return Completing()
                }
                .inScope(.container)
                .initCompleted { r, completing in
                    completing.other = try r.resolve(Completing.self, name: name == "A" ? "B" : "A")
                }
            }
            let failures = Counter()
            onThreads(2) { thread in
                if (try? container.resolve(Completing.self, name: thread == 0 ? "A" : "B")) == nil {
                    failures.increment()
                }
            }
            #expect(failures.count == 0)
            #expect(made.count == 2)
            let a = try container.resolve(Completing.self, name: "A")
            let b = try container.resolve(Completing.self, name: "B")
            #expect(a.other === b)
            #expect(b.other === a)
        }
    }

    @Test("Child tasks share the resolve's graph: a cycle closed in an async initCompleted's async let resolves")
    func cycleClosedInAChildTask() async throws {
        let container = Container()
        container.register(Parent.self) { r in Parent(child: try await r.resolve(Child.self)) }
        container.register(Child.self) { _ in Child() }
            .initCompleted { r, child in
                async let parent = r.resolve(Parent.self)
                child.parent = try await parent
            }
        let parent = try await container.resolveAsync(Parent.self)
        #expect((parent.child as? Child)?.parent === parent)
        // The same, with the child made in a child task of the parent's factory.
        container.register(Parent.self) { r in
            async let child = r.resolve(Child.self)
            return Parent(child: try await child)
        }
        let other = try await container.resolveAsync(Parent.self)
        #expect((other.child as? Child)?.parent === other)
    }

    final class Node: @unchecked Sendable {
        weak var itself: Node?
    }

    @Test("An initCompleted resolving its own service gets the instance, in every scope that keeps one")
    func completionResolvesItsOwnService() throws {
        for scope in [Scope<Node>.graph, .container, .weak] {
            let container = Container()
            container.register(Node.self) { _ in Node() }
                .inScope(scope)
                .initCompleted { r, node in node.itself = try r.resolve(Node.self) }
            let node = try container.resolve(Node.self)
            #expect(node.itself === node, "\(scope)")
        }
    }
}
