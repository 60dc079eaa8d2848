import Synchronization

/// The instance that an async registration in a shared scope keeps, created by exactly one task at
/// a time, with every other task that wants it *suspended* (never blocking a thread) until it is
/// published or the creation is abandoned.
///
/// The first piece of async resolution (issue 16): the exactly-once rule across tasks, failure and
/// cancellation, independent of how a resolve finds the registration and tracks its path.
///
/// - ``claim(by:)`` tells a task what to do: use the kept instance (even if the task is
///   cancelled), create it (the task becomes the *creator*), or wait for the creator it names —
///   which lets the resolve check first that waiting would not close a cycle of waits — unless
///   that creator is the asking resolve itself (a cycle).
/// - The creator makes the instance with no lock held, and ``publish(_:)``es it only when its whole
///   top-level resolve has succeeded (completions and injection included), so that a resolve that
///   fails after making it keeps nothing. Until then other tasks wait.
/// - If the creation fails, the creator ``abandon(_:retry:)``s it and nothing is kept. The waiters
///   shared the attempt, so they get its error too; except when the creator was cancelled, which is
///   not their failure: then they claim again (`retry`), and one of them becomes the next creator.
///   A task that had not started waiting when the creation ended claims again as well.
/// - A waiter whose task is cancelled stops waiting at once with `CancellationError`; the creation
///   it was waiting for goes on for the others.
///
/// Publication order: the instance is stored and the waiters are taken out under the lock, then
/// resumed after it; a task that comes later finds the instance kept. No user code (a factory, a
/// released instance's `deinit`) runs under the lock.
///
/// `Service` is not required to be `Sendable` here because a registration's cell is only ever
/// filled in the `.container` and `.weak` scopes, which ``Scope`` offers for `Sendable` services
/// only; the same holds for the synchronous ``InstanceCell``.
@usableFromInline
final class AsyncInstanceCell<Service>: @unchecked Sendable {
    @usableFromInline
    enum State {
        case empty
        /// The task of resolve `creator` is making the instance; the others wait, each under its
        /// own number.
        case creating(creator: UInt64, waiters: [UInt64: Waiter])
        case kept(Service)
        /// Kept weakly (the `.weak` scope): kept while anyone else holds the object.
        case keptWeakly(WeakBox)
    }

    /// A weakly kept object.
    @usableFromInline
    final class WeakBox {
        @usableFromInline weak var object: AnyObject?

        init(_ object: AnyObject) { self.object = object }
    }

    /// A suspended waiter, resumed with the instance (in a box: it is `Sendable` by the invariant
    /// above), or `nil` to claim again.
    @usableFromInline
    typealias Waiter = CheckedContinuation<UncheckedBox<Service>?, any Error>

    /// What a task that wants the instance does next.
    enum Claim {
        /// Use the kept instance.
        case kept(Service)
        /// Make it, then ``publish(_:)`` or ``abandon(_:retry:)``: this task is the creator.
        case create
        /// Another resolve, `creator`, is making it: ``waitForCreation(of:)``.
        case busy(creator: UInt64)
        /// This same resolve is making it: waiting would wait for itself (a cycle).
        case ownCreation
    }

    @usableFromInline
    let state = Locked.make(State.empty)

    /// Set once the registration has been replaced: what is created from now on is not kept.
    private let isRetired = Atomic<Bool>(false)

    /// Set by a reset while a creation is under way: that creation keeps nothing, as it may have
    /// read what the reset was meant to drop. Cleared when a creation starts. Read and written
    /// under the state's lock only.
    private let isCreationStale = Atomic<Bool>(false)

    /// Numbers the waiters, so that a cancellation finds its own.
    private let waiterNumbers = Atomic<UInt64>(0)

    init() {}

    /// What resolve `owner` (a number unique to one top-level resolve) does next to get the
    /// instance. `.create` makes it the creator: it must then publish or abandon.
    func claim(by owner: UInt64) -> Claim {
        state.withLock { state in
            switch state {
            case .kept(let service):
                return .kept(service)
            case .keptWeakly(let box):
                if let object = box.object, let service = object as? Service { return .kept(service) }
                state = .creating(creator: owner, waiters: [:])
                isCreationStale.store(false, ordering: .relaxed)
                return .create
            case .creating(let creator, _):
                return creator == owner ? .ownCreation : .busy(creator: creator)
            case .empty:
                state = .creating(creator: owner, waiters: [:])
                isCreationStale.store(false, ordering: .relaxed)
                return .create
            }
        }
    }

    /// Keeps `service`, made by the creator — weakly if `weakly` and it is an object, not at all
    /// if the registration was retired or reset since the creation began — and hands it to every
    /// waiter.
    func publish(_ service: Service, weakly: Bool = false) {
        let waiters = state.withLock { state -> [UInt64: Waiter] in
            guard case .creating(_, let waiters) = state else {
                preconditionFailure("AsyncInstanceCell.publish without a creation under way")
            }
            if isRetired.load(ordering: .relaxed) || isCreationStale.load(ordering: .relaxed) {
                state = .empty
            } else if weakly {
                // `.weak` keeps objects only: a value is handed out and not kept, like `.transient`.
                let isObject = type(of: service as Any) is AnyObject.Type
                state = isObject ? .keptWeakly(WeakBox(service as AnyObject)) : .empty
            } else {
                state = .kept(service)
            }
            return waiters
        }
        for waiter in waiters.values { waiter.resume(returning: UncheckedBox(service)) }
    }

    /// Gives up the creation: nothing is kept, and every waiter gets `error`, or tries again if
    /// `retry` (the creator's failure was its own cancellation, not theirs).
    func abandon(_ error: any Error, retry: Bool) {
        let waiters = state.withLock { state -> [UInt64: Waiter] in
            guard case .creating(_, let waiters) = state else {
                preconditionFailure("AsyncInstanceCell.abandon without a creation under way")
            }
            state = .empty
            return waiters
        }
        for waiter in waiters.values {
            if retry {
                waiter.resume(returning: nil)
            } else {
                waiter.resume(throwing: error)
            }
        }
    }

    /// Whether resolve `owner` is creating the instance now.
    func isCreating(by owner: UInt64) -> Bool {
        state.withLock { state in
            if case .creating(let creator, _) = state { return creator == owner }
            return false
        }
    }

    /// The kept instance, if any: inlined into `resolveAsync`, the read of a published singleton.
    @inlinable
    var keptInstance: Service? {
        // A strong reference loaded from a weak one may be the last: released by the caller,
        // after the lock.
        let (strong, weak) = state.withLock { state -> (Service?, AnyObject?) in
            switch state {
            case .kept(let service): return (service, nil)
            case .keptWeakly(let box): return (nil, box.object)
            case .empty, .creating: return (nil, nil)
            }
        }
        return strong ?? weak.flatMap { $0 as? Service }
    }

    /// Lets the kept instance go; the next claim creates a new one. A creation under
    /// way hands its instance to its resolve and waiters, but keeps nothing: it may have read what
    /// the reset was meant to drop.
    func reset() {
        let released = state.withLock { state -> Service? in
            guard case .kept(let service) = state else {
                if case .keptWeakly = state { state = .empty }
                if case .creating = state { isCreationStale.store(true, ordering: .relaxed) }
                return nil
            }
            state = .empty
            return service
        }
        // Released here, outside the lock: its `deinit` may use the container.
        withExtendedLifetime(released) {}
    }

    /// Lets the kept instance go for good: the registration has been replaced, and a creation
    /// under way or started by a resolve still holding it hands its instance out without keeping it.
    func retire() {
        isRetired.store(true, ordering: .relaxed)
        reset()
    }

    /// Waits for the creation by `creator` that ``claim(by:)`` reported: its instance, its error,
    /// or `nil` — claim again — if it was given up for a retry or has ended by the time this task
    /// waits, or if another creation has started since (so that a resolve never waits for a
    /// creator it did not check for a cycle of waits).
    ///
    /// - Throws: The abandoned creation's error, or `CancellationError` if this task is cancelled
    ///   while it waits (at once, if it already was).
    func waitForCreation(of creator: UInt64) async throws -> Service? {
        let number = waiterNumbers.wrappingAdd(1, ordering: .relaxed).newValue
        let box = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: Waiter) in
                let outcome = state.withLock { state -> Result<UncheckedBox<Service>?, any Error>? in
                    // Checked under the lock: the flag is set before `onCancel` runs, so either it
                    // is seen here, or `onCancel` runs after this registers and finds the waiter.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    guard case .creating(let current, var waiters) = state else {
                        if case .kept(let service) = state { return .success(UncheckedBox(service)) }
                        return .success(nil)  // Claim again: that also reads a weakly kept instance.
                    }
                    guard current == creator else { return .success(nil) }
                    state = .empty  // So that `waiters` is the only reference: no copy to insert.
                    waiters[number] = waiter
                    state = .creating(creator: current, waiters: waiters)
                    return nil
                }
                if let outcome { waiter.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Waiter? in
                guard case .creating(let current, var waiters) = state, waiters[number] != nil else { return nil }
                state = .empty
                let waiter = waiters.removeValue(forKey: number)
                state = .creating(creator: current, waiters: waiters)
                return waiter
            }
            cancelled?.resume(throwing: CancellationError())
        }
        return box?.value
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
        state.withLock { Self.waiters(of: $0).count }
    }

    private static func waiters(of state: State) -> [UInt64: Waiter] {
        if case .creating(_, let waiters) = state { return waiters }
        return [:]
    }
}
