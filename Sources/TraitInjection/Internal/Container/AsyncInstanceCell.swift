/// The instance that an async registration in a shared scope keeps, created by exactly one task at
/// a time, with every other task that wants it *suspended* (never blocking a thread) until it is
/// published or the creation is abandoned.
///
/// The first piece of async resolution (issue 16): the exactly-once rule across tasks, failure and
/// cancellation, independent of how a resolve finds the registration and tracks its path.
///
/// - ``claim(by:)`` tells a task what to do: use the kept instance (even if the task is
///   cancelled), create it (the task becomes the *creator*), or wait for the creator it names —
///   which lets the resolve check first that waiting would not close a cycle of waits.
/// - The creator makes the instance with no lock held, and ``publish(_:)``es it only when its whole
///   top-level resolve has succeeded (completions and injection included), so that a resolve that
///   fails after making it keeps nothing. Until then other tasks wait.
/// - If the creation fails, the creator ``abandon(_:retry:)``s it and nothing is kept. The waiters
///   shared the attempt, so they get its error too; except when the creator was cancelled, which is
///   not their failure: then they try again (`retry`), and one of them becomes the next creator.
/// - A waiter whose task is cancelled stops waiting at once with `CancellationError`; the creation
///   it was waiting for goes on for the others.
///
/// Publication order: the instance is stored and the waiters are taken out under the lock, then
/// resumed after it; a task that comes later finds the instance kept. No user code (a factory, a
/// released instance's `deinit`) runs under the lock.
final class AsyncInstanceCell<Service: Sendable>: Sendable {
    private enum State {
        case empty
        /// The task of resolve `creator` is making the instance; the others wait.
        case creating(creator: UInt64, waiters: [UInt64: Waiter])
        case kept(Service)
    }

    private enum Waiter {
        case suspended(CheckedContinuation<Service?, any Error>)
        /// Cancelled before it suspended: it resumes with `CancellationError` as it suspends.
        case cancelledEarly
    }

    /// What a task that wants the instance does next.
    enum Claim {
        /// Use the kept instance.
        case kept(Service)
        /// Make it, then ``publish(_:)`` or ``abandon(_:retry:)``: this task is the creator.
        case create
        /// Another resolve, `creator`, is making it: ``waitForCreation()``.
        case busy(creator: UInt64)
    }

    private let state = Locked.make(State.empty)

    /// Numbers the waiters, so that a cancellation finds its own.
    private let waiterNumbers = Locked.make(UInt64(0))

    init() {}

    /// What resolve `owner` (a number unique to one top-level resolve) does next to get the
    /// instance. `.create` makes it the creator: it must then publish or abandon.
    func claim(by owner: UInt64) -> Claim {
        state.withLock { state in
            switch state {
            case .kept(let service):
                return .kept(service)
            case .creating(let creator, _):
                return .busy(creator: creator)
            case .empty:
                state = .creating(creator: owner, waiters: [:])
                return .create
            }
        }
    }

    /// Keeps `service`, made by the creator, and hands it to every waiter.
    func publish(_ service: Service) {
        let waiters = state.withLock { state -> [UInt64: Waiter] in
            let waiters = Self.waiters(of: state)
            state = .kept(service)
            return waiters
        }
        for case .suspended(let continuation) in waiters.values { continuation.resume(returning: service) }
    }

    /// Gives up the creation: nothing is kept, and every waiter gets `error`, or tries again if
    /// `retry` (the creator's failure was its own cancellation, not theirs).
    func abandon(_ error: any Error, retry: Bool) {
        let waiters = state.withLock { state -> [UInt64: Waiter] in
            let waiters = Self.waiters(of: state)
            state = .empty
            return waiters
        }
        for case .suspended(let continuation) in waiters.values {
            if retry {
                continuation.resume(returning: nil)
            } else {
                continuation.resume(throwing: error)
            }
        }
    }

    /// The kept instance, or a new one from `make` if none is kept, made by one task at a time and
    /// published as soon as `make` returns: the whole protocol for a resolve with nothing else to
    /// wait for.
    ///
    /// - Throws: `make`'s error, the error of the creation this task waited for, or
    ///   `CancellationError` if this task was cancelled while it waited.
    func instance(by owner: UInt64, make: @Sendable () async throws -> Service) async throws -> Service {
        while true {
            switch claim(by: owner) {
            case .kept(let kept):
                return kept
            case .create:
                do {
                    let service = try await make()
                    publish(service)
                    return service
                } catch {
                    abandon(error, retry: error is CancellationError && Task.isCancelled)
                    throw error
                }
            case .busy:
                if let published = try await waitForCreation() { return published }
            // Its creator was cancelled: try again.
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

    /// Waits for the creation under way: its instance, `nil` if its creator was cancelled or it
    /// ended in another way meanwhile (claim again), or its error.
    ///
    /// - Throws: The abandoned creation's error, or `CancellationError` if this task is cancelled
    ///   while it waits (at once, if it already was).
    func waitForCreation() async throws -> Service? {
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
                    case .creating(let creator, var waiters):
                        if case .cancelledEarly = waiters[number] {
                            waiters[number] = nil
                            state = .creating(creator: creator, waiters: waiters)
                            return .failure(CancellationError())
                        }
                        waiters[number] = .suspended(continuation)
                        state = .creating(creator: creator, waiters: waiters)
                        return nil
                    }
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Service?, any Error>? in
                guard case .creating(let creator, var waiters) = state else { return nil }
                switch waiters[number] {
                case .suspended(let continuation)?:
                    waiters[number] = nil
                    state = .creating(creator: creator, waiters: waiters)
                    return continuation
                case .cancelledEarly?:
                    return nil
                case nil:
                    waiters[number] = .cancelledEarly
                    state = .creating(creator: creator, waiters: waiters)
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
        if case .creating(_, let waiters) = state { return waiters }
        return [:]
    }
}
