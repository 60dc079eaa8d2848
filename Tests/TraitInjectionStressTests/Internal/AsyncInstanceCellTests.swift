import Synchronization
import TestFixtures
import Testing

@testable import TraitInjection

/// Direct tests of ``AsyncInstanceCell``: exactly one creation across tasks, with the others
/// suspended rather than blocking threads, and what failure and cancellation do.
@Suite("Internal primitives: AsyncInstanceCell", .timeLimit(.minutes(1)))
struct AsyncInstanceCellTests {
    /// Far more tasks than the cooperative pool has threads (one per core: 2 here).
    static let tasks = 64

    @Test(
        "Many more tasks than threads: the factory runs once, only after all of them have asked, and all get its instance"
    )
    func exactlyOnceWithoutBlocking() async throws {
        let cell = AsyncInstanceCell<Service>()
        let asked = Counter()
        let calls = Counter()
        let results = await inTasks(Self.tasks) { task in
            asked.increment()
            return try? await cell.instance(by: UInt64(task)) {
                calls.increment()
                // Finishes only once every task has asked: if the waiters held the pool's threads,
                // this would never run again.
                while asked.count < Self.tasks { await Task.yield() }
                return Service(number: 7)
            }
        }
        #expect(calls.count == 1)
        let instances = results.compactMap { $0 }
        #expect(instances.count == Self.tasks)
        #expect(Set(instances.map(ObjectIdentifier.init)).count == 1)
        #expect(cell.keptInstance === instances.first)
    }

    struct Failure: Error, Equatable {}

    @Test("A failed creation keeps nothing, its waiters get its error, and the next call creates again")
    func failureKeepsNothing() async throws {
        let cell = AsyncInstanceCell<Service>()
        let gate = Gate()
        let creator = Task {
            try await cell.instance(by: 100) {
                await gate.wait()
                throw Failure()
            }
        }
        // Let the creator claim the cell first.
        while cell.isCreatingForTesting == false { await Task.yield() }
        let waiters = (0..<8).map { index in
            Task { try await cell.instance(by: UInt64(index)) { Service(number: -1) } }
        }
        while cell.waiterCountForTesting < 8 { await Task.yield() }
        gate.open()
        await #expect(throws: Failure.self) { try await creator.value }
        for waiter in waiters {
            await #expect(throws: Failure.self) { try await waiter.value }
        }
        #expect(cell.keptInstance == nil)
        #expect(!cell.isCreatingForTesting)
        let next = try await cell.instance(by: 101) { Service(number: 2) }
        #expect(next.number == 2)
        #expect(cell.keptInstance === next)
    }

    @Test("A creator cancelled mid-creation: its waiters try again, one creates, and all get that instance")
    func cancelledCreatorHandsOver() async throws {
        let cell = AsyncInstanceCell<Service>()
        let calls = Counter()
        let creator = Task {
            try await cell.instance(by: 100) {
                calls.increment()
                while !Task.isCancelled { await Task.yield() }
                throw CancellationError()
            }
        }
        while cell.isCreatingForTesting == false { await Task.yield() }
        let waiters = (0..<8).map { index in
            Task {
                try await cell.instance(by: UInt64(index)) {
                    calls.increment()
                    return Service(number: index)
                }
            }
        }
        while cell.waiterCountForTesting < 8 { await Task.yield() }
        creator.cancel()
        await #expect(throws: CancellationError.self) { try await creator.value }
        var instances: [Service] = []
        for waiter in waiters { instances.append(try await waiter.value) }
        #expect(calls.count == 2)
        #expect(Set(instances.map(ObjectIdentifier.init)).count == 1)
        #expect(cell.keptInstance === instances.first)
    }

    @Test("A cancelled waiter stops waiting at once; the creation goes on and the others get it")
    func cancelledWaiterLeaves() async throws {
        let cell = AsyncInstanceCell<Service>()
        let gate = Gate()
        let creator = Task {
            try await cell.instance(by: 100) {
                await gate.wait()
                return Service(number: 3)
            }
        }
        while cell.isCreatingForTesting == false { await Task.yield() }
        let leaving = Task { try await cell.instance(by: 1) { Service(number: -1) } }
        let staying = Task { try await cell.instance(by: 2) { Service(number: -1) } }
        while cell.waiterCountForTesting < 2 { await Task.yield() }
        leaving.cancel()
        // Returns while the creation is still held at the gate.
        await #expect(throws: CancellationError.self) { try await leaving.value }
        #expect(cell.keptInstance == nil)
        gate.open()
        let created = try await creator.value
        #expect(try await staying.value === created)
        #expect(cell.waiterCountForTesting == 0)
    }

    @Test("An already cancelled task gets a kept instance, and CancellationError instead of waiting")
    func alreadyCancelledTask() async throws {
        let cell = AsyncInstanceCell<Service>()
        let gate = Gate()
        let creator = Task {
            try await cell.instance(by: 100) {
                await gate.wait()
                return Service(number: 4)
            }
        }
        while cell.isCreatingForTesting == false { await Task.yield() }
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await cell.instance(by: 1) { Service(number: -1) }
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        gate.open()
        let created = try await creator.value
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await cell.instance(by: 1) { Service(number: -1) }
        }
        #expect(try await late.value === created)
    }

    @Test("A claim names the creator; an instance made but not yet published stays out of sight until it is")
    func publicationWaitsForTheWholeResolve() async throws {
        let cell = AsyncInstanceCell<Service>()
        guard case .create = cell.claim(by: 1) else {
            Issue.record("an empty cell did not hand out the creation")
            return
        }
        guard case .busy(let creator) = cell.claim(by: 2) else {
            Issue.record("a cell being created did not say so")
            return
        }
        #expect(creator == 1)
        let waiter = Task { try await cell.waitForCreation(of: creator) }
        while cell.waiterCountForTesting < 1 { await Task.yield() }
        // The creator has made its instance; the rest of its resolve is still running.
        let made = Service(number: 5)
        #expect(cell.keptInstance == nil)
        #expect(cell.waiterCountForTesting == 1)
        cell.publish(made)
        #expect(try await waiter.value === made)
        guard case .kept(let kept) = cell.claim(by: 3), kept === made else {
            Issue.record("a published instance was not kept")
            return
        }
    }

    @Test("A creation abandoned after its instance was made (its resolve failed later) keeps nothing")
    func abandonedAfterMaking() async throws {
        let cell = AsyncInstanceCell<Service>()
        guard case .create = cell.claim(by: 1) else {
            Issue.record("an empty cell did not hand out the creation")
            return
        }
        let waiter = Task { try await cell.waitForCreation(of: 1) }
        while cell.waiterCountForTesting < 1 { await Task.yield() }
        // The instance exists, but a sibling of the resolve failed: it is dropped unseen.
        let made = Service(number: 6)
        withExtendedLifetime(made) { cell.abandon(Failure(), retry: false) }
        await #expect(throws: Failure.self) { try await waiter.value }
        #expect(cell.keptInstance == nil)
        guard case .create = cell.claim(by: 2) else {
            Issue.record("an abandoned cell did not hand out the creation again")
            return
        }
        cell.abandon(CancellationError(), retry: true)  // This creator gives up too: no one waits.
        #expect(!cell.isCreatingForTesting)
    }

    @Test("A waiter told of one creator never waits for another: it is told to claim again")
    func neverWaitsForAnUncheckedCreator() async throws {
        let cell = AsyncInstanceCell<Service>()
        guard case .create = cell.claim(by: 1), case .busy(let creator) = cell.claim(by: 2) else {
            Issue.record("unexpected claims")
            return
        }
        // Creator 1 gives up and resolve 3 starts a creation of its own before resolve 2 waits.
        cell.abandon(CancellationError(), retry: true)
        guard case .create = cell.claim(by: 3) else {
            Issue.record("an abandoned cell did not hand out the creation")
            return
        }
        #expect(try await cell.waitForCreation(of: creator) == nil)
        #expect(cell.waiterCountForTesting == 0)
        cell.publish(Service(number: 8))
        #expect(try await cell.waitForCreation(of: 3)?.number == 8)
    }

    @Test("A resolve that asks for the instance it is making is told so, and instance(by:make:) throws")
    func ownCreationIsACycle() async throws {
        let cell = AsyncInstanceCell<Service>()
        await #expect(throws: AsyncInstanceCell<Service>.OwnCreation.self) {
            try await cell.instance(by: 1) {
                try await cell.instance(by: 1) { Service(number: -1) }
            }
        }
        #expect(!cell.isCreatingForTesting)
        #expect(cell.keptInstance == nil)
    }

    struct OwnWorkCancelled: Error {}

    @Test("Waiters claim again after a creator was cancelled whatever it threw, or threw CancellationError uncancelled")
    func cancellationOfTheCreatorIsNotTheWaiters() async throws {
        for cancelCreator in [true, false] {
            let cell = AsyncInstanceCell<Service>()
            let gate = Gate()
            let creator = Task {
                try await cell.instance(by: 100) {
                    await gate.wait()
                    // Cancelled: an error of its own kind; not cancelled: its own work's cancellation.
                    if Task.isCancelled { throw OwnWorkCancelled() }
                    throw CancellationError()
                }
            }
            while !cell.isCreatingForTesting { await Task.yield() }
            let waiter = Task { try await cell.instance(by: 1) { Service(number: 9) } }
            while cell.waiterCountForTesting < 1 { await Task.yield() }
            if cancelCreator { creator.cancel() }
            gate.open()
            _ = try? await creator.value
            #expect(try await waiter.value.number == 9)
        }
    }

    @Test("A cancellation that races with creations starting and ending never leaves its task waiting")
    func cancellationIsNeverLost() async throws {
        let cell = AsyncInstanceCell<Service>()
        let stop = Gate()
        // Creations by resolve 999 start and are given up over and over.
        let churn = Task.detached {
            while !stop.opened {
                if case .create = cell.claim(by: 999) { cell.abandon(CancellationError(), retry: true) }
                await Task.yield()
            }
        }
        for _ in 0..<2_000 {
            let waiter = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await cell.waitForCreation(of: 999)
            }
            // Already cancelled: it returns (nil, or CancellationError) and never stays waiting.
            _ = try? await waiter.value
        }
        stop.open()
        await churn.value
        #expect(cell.waiterCountForTesting == 0)
    }

    /// An instance that runs `onDeinit` as it goes.
    final class Probe: Sendable {
        let onDeinit: @Sendable () -> Void

        init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }

        deinit { onDeinit() }
    }

    @Test("A reset lets the kept instance go outside the lock: its deinit may use the cell again")
    func resetReleasesOutsideTheLock() async throws {
        let cell = AsyncInstanceCell<Probe>()
        let sawEmptyCell = Counter()
        _ = try await cell.instance(by: 1) {
            // Reads the cell as it goes: under the cell's lock this would deadlock.
            Probe { if cell.keptInstance == nil { sawEmptyCell.increment() } }
        }
        cell.reset()
        #expect(sawEmptyCell.count == 1)
        #expect(cell.keptInstance == nil)
    }
}
