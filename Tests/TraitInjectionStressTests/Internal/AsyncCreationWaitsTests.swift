import TestFixtures
import Testing

@testable import TraitInjection

/// Direct tests of ``AsyncCreationWaits``: a wait that would close a cycle of waits between
/// resolves is refused with the services on the cycle, and every record goes when its wait ends.
/// The tests take turns (they count the records), and each uses resolve numbers of its own.
@Suite("Internal primitives: AsyncCreationWaits", .serialized, .timeLimit(.minutes(1)))
struct AsyncCreationWaitsTests {

    /// Records a wait of `waiter` for `service` created by `creator` that lasts until `gate` opens.
    static func wait(
        _ waiter: UInt64,
        for service: String,
        createdBy creator: UInt64,
        until gate: Gate,
        while isCurrent: @escaping @Sendable () -> Bool = { true }
    ) -> Task<Void, any Error> {
        Task {
            try await AsyncCreationWaits.waiting(waiter, for: service, createdBy: creator, while: isCurrent) {
                await gate.wait()
            }
        }
    }

    /// Waits until `count` more waits than `base` are recorded.
    static func untilRecorded(_ count: Int, over base: Int) async {
        while AsyncCreationWaits.countForTesting < base + count { await Task.yield() }
    }

    @Test("A wait that closes a cycle of two resolves is refused, naming both services; the other goes on")
    func twoResolveCycle() async throws {
        let base = AsyncCreationWaits.countForTesting
        let gate = Gate()
        let first = Self.wait(1_001, for: "B", createdBy: 1_002, until: gate)
        await Self.untilRecorded(1, over: base)
        let refused = await #expect(throws: AsyncCreationWaits.Deadlock.self) {
            try await AsyncCreationWaits.waiting(1_002, for: "A", createdBy: 1_001, while: { true }) {
                Issue.record("ran")
            }
        }
        #expect(refused?.services == ["A", "B"])
        gate.open()
        try await first.value
    }

    @Test("A cycle through three resolves is found, with its services in the order of the waits")
    func threeResolveCycle() async throws {
        let gate = Gate()
        let base = AsyncCreationWaits.countForTesting
        let first = Self.wait(2_001, for: "X", createdBy: 2_002, until: gate)
        let second = Self.wait(2_002, for: "Y", createdBy: 2_003, until: gate)
        await Self.untilRecorded(2, over: base)
        let refused = await #expect(throws: AsyncCreationWaits.Deadlock.self) {
            try await AsyncCreationWaits.waiting(2_003, for: "Z", createdBy: 2_001, while: { true }) {
                Issue.record("ran")
            }
        }
        #expect(refused?.services == ["Z", "X", "Y"])
        // Waits that close no cycle are recorded side by side, by the same resolve too.
        let third = Self.wait(2_003, for: "W", createdBy: 2_004, until: gate)
        let fourth = Self.wait(2_003, for: "V", createdBy: 2_004, until: gate)
        await Self.untilRecorded(4, over: base)
        gate.open()
        for task in [first, second, third, fourth] { try await task.value }
    }

    @Test("A record whose creation is over (its waiter not yet gone) is not taken for a cycle")
    func staleRecordsAreNoCycle() async throws {
        let base = AsyncCreationWaits.countForTesting
        let gate = Gate()
        let cell = AsyncInstanceCell<Service>()
        guard case .create = cell.claim(by: 5_002) else {
            Issue.record("an empty cell did not hand out the creation")
            return
        }
        // Resolve 5_001 waits for 5_002's creation, which then ends before the wait's record goes.
        let first = Self.wait(5_001, for: "X", createdBy: 5_002, until: gate) { cell.isCreating(by: 5_002) }
        await Self.untilRecorded(1, over: base)
        cell.publish(Service(number: 1))
        try await AsyncCreationWaits.waiting(5_002, for: "Y", createdBy: 5_001, while: { true }) {}
        gate.open()
        try await first.value
    }

    struct Failure: Error {}

    @Test("A wait's record goes when it ends, also when it throws")
    func recordsGo() async throws {
        let base = AsyncCreationWaits.countForTesting
        await #expect(throws: Failure.self) {
            try await AsyncCreationWaits.waiting(3_001, for: "A", createdBy: 3_002, while: { true }) { throw Failure() }
        }
        try await AsyncCreationWaits.waiting(3_001, for: "A", createdBy: 3_002, while: { true }) {}
        #expect(AsyncCreationWaits.countForTesting == base)
        // Gone: the reverse wait, which would have closed a cycle with either, is let through.
        try await AsyncCreationWaits.waiting(3_002, for: "B", createdBy: 3_001, while: { true }) {}
        #expect(AsyncCreationWaits.countForTesting == base)
    }

    @Test("Two resolves creating singletons that need each other: one is refused, both fail, nothing is kept")
    func crossTaskDeadlockEndsInErrors() async throws {
        let first = AsyncInstanceCell<Service>()
        let second = AsyncInstanceCell<Service>()

        /// Resolve `owner` creating `own`, whose factory needs `other`, as a resolve would do it.
        @Sendable func resolve(
            _ owner: UInt64,
            _ own: AsyncInstanceCell<Service>,
            needing other: AsyncInstanceCell<Service>,
            named name: String
        ) async throws -> Service {
            guard case .create = own.claim(by: owner) else { throw Failure() }
            do {
                // Each needs the other only once both are creating.
                while !(first.isCreatingForTesting && second.isCreatingForTesting) { await Task.yield() }
                guard case .busy(let creator) = other.claim(by: owner) else { throw Failure() }
                let needed = try await AsyncCreationWaits.waiting(
                    owner,
                    for: name,
                    createdBy: creator,
                    while: { other.isCreating(by: creator) }
                ) {
                    try await other.waitForCreation(of: creator)
                }
                let made = Service(number: needed?.number ?? -1)
                own.publish(made)
                return made
            } catch {
                own.abandon(error, retry: false)
                throw error
            }
        }
        let one = Task { try await resolve(4_001, first, needing: second, named: "Second") }
        let two = Task { try await resolve(4_002, second, needing: first, named: "First") }
        var errors: [any Error] = []
        for task in [one, two] {
            do {
                _ = try await task.value
                Issue.record("a resolve in the deadlock succeeded")
            } catch {
                errors.append(error)
            }
        }
        let deadlocks = errors.compactMap { $0 as? AsyncCreationWaits.Deadlock }
        #expect(deadlocks.count >= 1)
        #expect(Set(deadlocks.first?.services ?? []) == ["First", "Second"])
        #expect(first.keptInstance == nil && second.keptInstance == nil)
        #expect(!first.isCreatingForTesting && !second.isCreatingForTesting)
    }
}
