/// The instance that an async registration in a shared scope keeps, created by exactly one task at
/// a time, with every other task that wants it *suspended* (never blocking a thread) until it is
/// published or the creation fails.
///
/// The first piece of async resolution (issue 16): the exactly-once rule across tasks, failure and
/// cancellation, independent of how a resolve finds the registration and tracks its path.
///
/// - A task that finds the instance kept gets it at once, even if it is cancelled.
/// - A task that finds none becomes the *creator*: it runs `make` with no lock held. When `make`
///   returns, the instance is kept and every waiter resumes with it. (`make` is the whole resolve
///   of the instance, its `initCompleted` closures and injection included, so nothing is shared
///   before they succeed.)
/// - If `make` throws, nothing is kept. The waiters share the creator's attempt, so they get its
///   error too; except when the error is the creator's own cancellation, which is not theirs: then
///   they try again, and one of them becomes the next creator.
/// - A waiter whose task is cancelled stops waiting at once with `CancellationError`; the creation
///   it was waiting for goes on for the others.
///
/// Publication order: the instance is stored and the waiters are taken out under the lock, then
/// resumed after it; a task that comes later finds the instance kept. No user code (`make`, a
/// released instance's `deinit`) runs under the lock.
final class AsyncInstanceCell<Service: Sendable>: Sendable {
    private enum State {
        case empty
        /// `make` is running in one task; the others wait.
        case creating(waiters: [UInt64: Waiter])
        case kept(Service)
    }

    private enum Waiter {
        case suspended(CheckedContinuation<Service?, any Error>)
        /// Cancelled before it suspended: it resumes with `CancellationError` as it suspends.
        case cancelledEarly
    }

    private let state = Locked.make(State.empty)

    /// Numbers the waiters, so that a cancellation finds its own.
    private let waiterNumbers = Locked.make(UInt64(0))

    init() {}

    /// The kept instance, or a new one from `make` if none is kept, created by one task at a time.
    ///
    /// - Throws: `make`'s error, the error of the creation this task waited for, or
    ///   `CancellationError` if this task was cancelled while it waited.
    func instance(make: @Sendable () async throws -> Service) async throws -> Service {
        while true {
            switch nextStep() {
            case .use(let kept):
                return kept
            case .create:
                return try await create(make)
            case .wait:
                if let published = try await waitForCreation() { return published }
            // Its creator was cancelled: try again.
            }
        }
    }

    private enum Step {
        case use(Service)
        case create
        case wait
    }

    /// What a task that wants the instance does next; `.create` makes it the creator.
    private func nextStep() -> Step {
        state.withLock { state in
            switch state {
            case .kept(let service):
                return .use(service)
            case .creating:
                return .wait
            case .empty:
                state = .creating(waiters: [:])
                return .create
            }
        }
    }

    /// The kept instance, if any.
    var keptInstance: Service? {
        state.withLock { state in
            if case .kept(let service) = state { return service }
            return nil
        }
    }

    /// Lets the kept instance go; the next `instance(make:)` creates a new one. A creation under
    /// way is not affected: it keeps what it makes.
    func reset() {
        let released = state.withLock { state -> Service? in
            guard case .kept(let service) = state else { return nil }
            state = .empty
            return service
        }
        // Released here, outside the lock: its `deinit` may use the container.
        withExtendedLifetime(released) {}
    }

    private func create(_ make: @Sendable () async throws -> Service) async throws -> Service {
        do {
            let service = try await make()
            let waiters = state.withLock { state -> [UInt64: Waiter] in
                let waiters = Self.waiters(of: state)
                state = .kept(service)
                return waiters
            }
            for case .suspended(let continuation) in waiters.values { continuation.resume(returning: service) }
            return service
        } catch {
            let waiters = state.withLock { state -> [UInt64: Waiter] in
                let waiters = Self.waiters(of: state)
                state = .empty
                return waiters
            }
            // The creator's own cancellation is not the waiters' failure: they try again.
            let isOwnCancellation = error is CancellationError && Task.isCancelled
            for case .suspended(let continuation) in waiters.values {
                if isOwnCancellation {
                    continuation.resume(returning: nil)
                } else {
                    continuation.resume(throwing: error)
                }
            }
            throw error
        }
    }

    /// Waits for the creation under way: its instance, `nil` if its creator was cancelled (try
    /// again), or its error. Returns at once if it has already ended.
    private func waitForCreation() async throws -> Service? {
        let number = waiterNumbers.withLock { number -> UInt64 in
            number += 1
            return number
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Service?, any Error>) in
                let outcome = state.withLock { state -> Result<Service?, any Error>? in
                    switch state {
                    case .kept(let service):
                        return .success(service)
                    case .empty:
                        return .success(nil)
                    case .creating(var waiters):
                        if case .cancelledEarly = waiters[number] {
                            waiters[number] = nil
                            state = .creating(waiters: waiters)
                            return .failure(CancellationError())
                        }
                        waiters[number] = .suspended(continuation)
                        state = .creating(waiters: waiters)
                        return nil
                    }
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Service?, any Error>? in
                guard case .creating(var waiters) = state else { return nil }
                switch waiters[number] {
                case .suspended(let continuation)?:
                    waiters[number] = nil
                    state = .creating(waiters: waiters)
                    return continuation
                case .cancelledEarly?:
                    return nil
                case nil:
                    waiters[number] = .cancelledEarly
                    state = .creating(waiters: waiters)
                    return nil
                }
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    // MARK: For tests

    /// Whether a creation is under way.
    var isCreatingForTesting: Bool {
        state.withLock { state in
            if case .creating = state { return true }
            return false
        }
    }

    /// How many tasks are suspended waiting for the creation under way.
    var waiterCountForTesting: Int {
        state.withLock { state in
            Self.waiters(of: state).values.filter { waiter in
                if case .suspended = waiter { return true }
                return false
            }.count
        }
    }

    private static func waiters(of state: State) -> [UInt64: Waiter] {
        if case .creating(let waiters) = state { return waiters }
        return [:]
    }
}
