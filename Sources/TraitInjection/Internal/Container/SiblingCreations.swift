/// The shared instances one async resolve is creating, for the resolve's other tasks.
///
/// A factory may resolve in child tasks (`async let`, a task group). When one of them wants a
/// `.container` or `.weak` instance that another task of the same resolve is making, it cannot wait
/// for the instance to be *published* — that happens when the whole resolve ends, which waits for
/// this task — so it waits here until the instance is *made* (its factory returned), and gets it.
///
/// Tasks of one resolve may wait for each other in a cycle: the factory of A, in one task, needs B,
/// whose factory, in another, needs A. Each wait is recorded with the services on the waiting
/// task's path, which are being created and cannot finish while it waits; a wait whose service
/// leads back through the recorded waits to one of them is refused.
///
/// A task gets an instance made in another scope (``AsyncScope``: a `resolveAsync` inside a
/// factory) only once it is complete — it had no completions, or that scope's have run — as a
/// synchronous nested resolve does; otherwise it would see it half-built, and waiting for that
/// scope could wait for itself, so it is told ``Incomplete``.
///
/// Lock order: this lock, then a scope's (to read whether it is closed). Continuations are resumed
/// after it; no user code runs under it. (Waits between different resolves go through
/// ``AsyncCreationWaits``.)
final class SiblingCreations: Sendable {
    /// A refused wait: the tasks of the resolve would wait for each other.
    struct Cycle: Error {}

    /// An instance made in another scope whose completions have not run yet.
    struct Incomplete: Error {}

    /// A suspended task: it waits for `target` and is creating `sources` meanwhile, in `scope`.
    private struct Waiter {
        let sources: Set<ObjectIdentifier>
        let target: ObjectIdentifier
        let scope: AsyncScope
        let continuation: CheckedContinuation<UncheckedBox<Any>?, any Error>
    }

    /// An instance made, with the scope that made it and whether it needs no completions.
    private struct Made {
        let registration: AnyObject
        let instance: UncheckedBox<Any>
        let scope: AsyncScope
        let needsNoCompletion: Bool

        /// Whether a task in `scope` may have it now.
        func isReady(for scope: AsyncScope) -> Bool {
            scope === self.scope || needsNoCompletion || self.scope.isClosed
        }
    }

    private struct State {
        /// The registrations whose instance a task of the resolve is making, retained so that no
        /// other registration takes their address meanwhile.
        var creating: [ObjectIdentifier: AnyObject] = [:]
        /// The instances made, by registration (published when the resolve ends).
        var made: [ObjectIdentifier: Made] = [:]
        var waiters: [UInt64: Waiter] = [:]
        var lastNumber: UInt64 = 0
    }

    private let state = Locked.make(State())

    init() {}

    /// Records that a task of the resolve has started making the instance of `registration`.
    func begin(_ registration: AnyObject) {
        state.withLock { $0.creating[ObjectIdentifier(registration)] = registration }
    }

    /// Records the instance of `registration` as made in `scope` — with completions queued, unless
    /// `needsNoCompletion` — and hands it to the tasks waiting for it that may have it.
    ///
    /// The instance is `Sendable`: only `.container` and `.weak` registrations, offered for
    /// `Sendable` services only, are created this way.
    func made(_ registration: AnyObject, instance: Any, in scope: AsyncScope, needsNoCompletion: Bool) {
        let made = Made(
            registration: registration,
            instance: UncheckedBox(instance),
            scope: scope,
            needsNoCompletion: needsNoCompletion
        )
        let identity = ObjectIdentifier(registration)
        let waiting = state.withLock { state in
            state.creating[identity] = nil
            state.made[identity] = made
            return Self.takeWaiters(for: identity, from: &state).map { ($0, made.isReady(for: $0.scope)) }
        }
        for (waiter, isReady) in waiting {
            if isReady {
                waiter.continuation.resume(returning: made.instance)
            } else {
                waiter.continuation.resume(throwing: Incomplete())
            }
        }
    }

    /// Records that making the instance of `registration` failed: its waiters get `error`, or, if
    /// `retry`, claim it again.
    func failed(_ registration: ObjectIdentifier, error: any Error, retry: Bool) {
        let (waiting, forgotten) = state.withLock { state in
            let forgotten = (
                state.creating.removeValue(forKey: registration), state.made.removeValue(forKey: registration)
            )
            return (Self.takeWaiters(for: registration, from: &state), forgotten)
        }
        withExtendedLifetime(forgotten) {}
        for waiter in waiting {
            if retry {
                waiter.continuation.resume(returning: nil)
            } else {
                waiter.continuation.resume(throwing: error)
            }
        }
    }

    /// The instance of `registration` once another task of the resolve has made it, or `nil` if
    /// no task is making it (claim it again). `sources` are the registrations the waiting task is
    /// creating.
    ///
    /// - Throws: ``Cycle`` without waiting if the wait would close a cycle of waits;
    ///   ``Incomplete`` if it was made in another scope whose completions have not run; the error
    ///   of the failed creation; `CancellationError` if the task is cancelled while it waits.
    func instance(
        of registration: ObjectIdentifier,
        creating sources: Set<ObjectIdentifier>,
        in scope: AsyncScope
    ) async throws -> Any? {
        let number = state.withLock { state in
            state.lastNumber += 1
            return state.lastNumber
        }
        let box = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<UncheckedBox<Any>?, any Error>) in
                let outcome = state.withLock { state -> Result<UncheckedBox<Any>?, any Error>? in
                    if let made = state.made[registration] {
                        return made.isReady(for: scope) ? .success(made.instance) : .failure(Incomplete())
                    }
                    guard state.creating[registration] != nil else { return .success(nil) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if Self.leads(from: registration, to: sources, in: state.waiters) { return .failure(Cycle()) }
                    state.waiters[number] = Waiter(
                        sources: sources,
                        target: registration,
                        scope: scope,
                        continuation: continuation
                    )
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = state.withLock { $0.waiters.removeValue(forKey: number) }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
        return box?.value
    }

    /// Lets the made instances go, outside the lock, once the resolve has ended.
    func drop() {
        let dropped = state.withLock { state in
            defer {
                state.made = [:]
                state.creating = [:]
            }
            return (state.made, state.creating)
        }
        withExtendedLifetime(dropped) {}
    }

    /// Takes out the waiters for `registration`.
    private static func takeWaiters(for registration: ObjectIdentifier, from state: inout State) -> [Waiter] {
        let numbers = state.waiters.filter { $0.value.target == registration }.map(\.key)
        return numbers.compactMap { state.waiters.removeValue(forKey: $0) }
    }

    /// Whether the recorded waits lead from `start` to one of `goals`: a task creating `start`
    /// waits, directly or through others, for one of them.
    private static func leads(
        from start: ObjectIdentifier,
        to goals: Set<ObjectIdentifier>,
        in waiters: [UInt64: Waiter]
    ) -> Bool {
        var visited: Set<ObjectIdentifier> = [start]
        var frontier = [start]
        while let next = frontier.popLast() {
            if goals.contains(next) { return true }
            for waiter in waiters.values where waiter.sources.contains(next) {
                if visited.insert(waiter.target).inserted { frontier.append(waiter.target) }
            }
        }
        return false
    }
}
