/// The waits of async resolves for shared instances that other resolves are creating: the async
/// counterpart of ``CreationWaits``, for the second piece of async resolution (issue 16).
///
/// Before a resolve suspends to wait for an ``AsyncInstanceCell`` that another resolve is creating
/// (``AsyncInstanceCell/claim(by:)`` answered `.busy(creator:)`), it records the wait here. If the
/// recorded waits lead from that creator back to the waiting resolve, the resolves wait for each
/// other and none would ever resume: the wait is refused and the resolve reports a deadlock
/// instead. One resolve may wait in several places at once (child tasks of its factories), so
/// every wait is recorded on its own.
///
/// A recorded wait counts only while its creation is still under way: a waiter resumed by a
/// publish may not have removed its record yet, and a stale record must not make a later wait look
/// like a cycle.
///
/// Waits are rare (only while a shared instance is first created), so one lock serves the whole
/// process. Lock order: this lock, then a cell's (a cell never takes this one). No user code runs
/// under either.
enum AsyncCreationWaits {
    /// A recorded wait: resolve `waiter` waits for `service`, which resolve `creator` is creating.
    struct Wait {
        let waiter: UInt64
        let creator: UInt64
        let service: String
        /// Whether `creator` is still creating the instance waited for (takes the cell's lock).
        let isCurrent: @Sendable () -> Bool
    }

    /// A refused wait: the services along the cycle of waits, starting with the one the refused
    /// resolve wanted, then the one its creator waits for, and so on back to the refused resolve.
    struct Deadlock: Error {
        let services: [String]
    }

    private struct State {
        var waits: [UInt64: Wait] = [:]
        var lastNumber: UInt64 = 0
    }

    private static let state = Locked.make(State())

    /// Runs `body` — the wait — recorded as `waiter` waiting for `service` created by `creator`,
    /// and removes the record when it ends, however it ends.
    ///
    /// - Throws: ``Deadlock`` without running `body` if the wait would close a cycle of waits;
    ///   otherwise `body`'s error.
    static func waiting<Result>(
        _ waiter: UInt64,
        for service: String,
        createdBy creator: UInt64,
        while isCurrent: @escaping @Sendable () -> Bool,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let number = try begin(Wait(waiter: waiter, creator: creator, service: service, isCurrent: isCurrent))
        defer { end(number) }
        return try await body()
    }

    /// Records `wait` unless the waits recorded lead from its creator back to its waiter.
    ///
    /// - Returns: The number of the record, for ``end(_:)``.
    static func begin(_ wait: Wait) throws -> UInt64 {
        try state.withLock { state throws -> UInt64 in
            if let cycle = path(from: wait.creator, to: wait.waiter, in: state.waits) {
                throw Deadlock(services: [wait.service] + cycle.map(\.service))
            }
            state.lastNumber += 1
            state.waits[state.lastNumber] = wait
            return state.lastNumber
        }
    }

    /// Removes a record made by ``begin(_:)``.
    static func end(_ number: UInt64) {
        _ = state.withLock { $0.waits.removeValue(forKey: number) }
    }

    /// The waits that lead from resolve `start` to resolve `goal`, if any: a search through the
    /// recorded waits, each resolve visited once.
    private static func path(from start: UInt64, to goal: UInt64, in waits: [UInt64: Wait]) -> [Wait]? {
        if start == goal { return [] }
        var visited: Set<UInt64> = [start]
        var frontier: [(resolve: UInt64, path: [Wait])] = [(start, [])]
        while let (resolve, path) = frontier.popLast() {
            for wait in waits.values where wait.waiter == resolve && wait.isCurrent() {
                if wait.creator == goal { return path + [wait] }
                if visited.insert(wait.creator).inserted { frontier.append((wait.creator, path + [wait])) }
            }
        }
        return nil
    }

    /// How many waits are recorded by the tests of this type: those whose waiter is numbered
    /// below the numbers of real resolves, which other tests make at the same time.
    static var countForTesting: Int {
        state.withLock { state in state.waits.values.count { $0.waiter < AsyncResolveState.firstNumber } }
    }
}
