import Synchronization

/// The state of one top-level async resolve, shared by its factories and the tasks they start:
/// the `.graph` instances, the shared instances it created (published when it succeeds), and the
/// `initCompleted` closures queued until a factory's resolve has returned.
///
/// Who sees what, and when:
/// - `.graph` instances are shared within the task that started the resolve, which outlives it.
///   A child task a factory starts gets instances of its own, not shared: they need not be
///   `Sendable`, and another task may be using them at the same time. (A task is known only by
///   its address, which a finished child task's successor may reuse; the starting task's cannot
///   be reused while the resolve lasts.) Graph instances are kept with their registration, so
///   that no other registration can take its address meanwhile.
/// - A shared (`.container`, `.weak`) instance is claimed in its registration's
///   ``AsyncInstanceCell`` while it is made; other resolves wait. It is published only by
///   ``finish()``, after every completion has run and every resolve that joined has ended; if
///   the resolve fails, or the scope that made it (``AsyncScope``) fails, it is abandoned and the
///   waiters get the error. A claim made after a failure is abandoned at once.
/// - Every resolve through the state (a factory's, a child task's, a task that was not awaited)
///   joins it while it runs, and ``finish()`` waits for them all, so that nothing is claimed or
///   queued once the resolve has ended.
/// - No user code runs under the lock: completions, and instances released by a failure, run or
///   go after it.
final class AsyncResolveState: Sendable {
    /// A shared instance this resolve created, to publish when it succeeds.
    struct Claim {
        /// The scope that made it, which abandons it if it fails.
        let scope: ObjectIdentifier
        let registration: ObjectIdentifier
        let publish: @Sendable () -> Void
        let abandon: @Sendable (any Error, Bool) -> Void
    }

    private struct Guarded {
        /// `.graph` instances, by registration and lookup container, with their registration.
        var graph: [GraphKey: (registration: AnyObject?, instance: Any)] = [:]
        var claims: [Claim] = []
        /// Resolves running through this state.
        var joins = 0
        /// ``finish()``, waiting for `joins` to reach 0.
        var finishing: CheckedContinuation<Void, Never>?
        var isFinished = false
        /// Why the resolve failed, for claims made after it did.
        var failure: ResolutionError?
        /// The registrations resolved, held until the resolve ends: the frames of its paths do not
        /// retain theirs.
        var held: [AnyObject] = []
    }

    /// The first resolve's number. Those below are left to the tests of the primitives
    /// (``AsyncInstanceCell``, ``AsyncCreationWaits``), which pick their own.
    static let firstNumber: UInt64 = 1 << 32
    private static let numbers = Atomic<UInt64>(firstNumber)

    /// Never repeated: who creates what this resolve claims, for cells and waits.
    let number: UInt64
    /// Whether this is a dry run (``Container/verifyAsync()``): nothing is kept.
    let isDryRun: Bool
    /// The task that started the resolve, as its address's hash: the one that shares `.graph`
    /// instances.
    private let startingTask: Int
    private let guarded = Locked.make(Guarded())
    /// The shared instances this resolve is making, for its other tasks.
    let siblings = SiblingCreations()
    /// The completions queued by the top-level resolve, run by ``finish()``.
    let rootScope = AsyncScope()

    init(isDryRun: Bool = false) {
        number = Self.numbers.wrappingAdd(1, ordering: .relaxed).newValue
        self.isDryRun = isDryRun
        startingTask = Self.currentTask
    }

    private static var currentTask: Int {
        withUnsafeCurrentTask { $0?.hashValue ?? 0 }
    }

    // MARK: Joining

    /// Starts a resolve through this state, unless the resolve has ended: then `false`.
    func join() -> Bool {
        guarded.withLock { state in
            guard !state.isFinished else { return false }
            state.joins += 1
            return true
        }
    }

    /// Ends a resolve started by ``join()``.
    func leave() {
        let finishing = guarded.withLock { state -> CheckedContinuation<Void, Never>? in
            state.joins -= 1
            guard state.joins == 0 else { return nil }
            defer { state.finishing = nil }
            return state.finishing
        }
        finishing?.resume()
    }

    /// Holds `registration` until the resolve ends, for the frames that refer to it.
    func hold(_ registration: AnyObject) {
        guarded.withLock { $0.held.append(registration) }
    }

    // MARK: The graph

    /// Whether the calling task shares `.graph` instances: it is the one that started the resolve.
    var sharesGraph: Bool {
        Self.currentTask == startingTask
    }

    /// The `.graph` instance of `key`, if any.
    func graphInstance<Service>(_ key: GraphKey, as _: Service.Type) -> Service? {
        guarded.withLock { $0.graph[key]?.instance } as? Service
    }

    /// Keeps `instance` as the `.graph` instance of `key`, with its registration (`nil` for one a
    /// synchronous resolve made, which its `as?` read back guards).
    func keepGraphInstance(_ instance: Any, of registration: AnyObject?, for key: GraphKey) {
        guarded.withLock { $0.graph[key] = (registration, instance) }
    }

    /// Every `.graph` instance, for a synchronous resolve of this task to start from.
    var graphInstances: [GraphKey: (registration: AnyObject?, instance: Any)] {
        guarded.withLock(\.graph)
    }

    // MARK: Shared instances

    /// Records a shared instance made in `scope`, to publish when the resolve succeeds; abandons
    /// it at once if the resolve has already failed.
    func addClaim<Service>(
        _ instance: Service,
        of registration: Registration<Service>,
        weakly: Bool,
        in scope: AsyncScope
    ) {
        let cell = registration.asyncCell
        // The instance is `Sendable` in practice: only `.container` and `.weak` registrations,
        // which `Scope` offers for `Sendable` services only, claim a cell.
        let box = UncheckedBox(instance)
        let claim = Claim(
            scope: ObjectIdentifier(scope),
            registration: ObjectIdentifier(registration),
            publish: { cell.publish(box.value, weakly: weakly) },
            abandon: { error, retry in cell.abandon(error, retry: retry) }
        )
        let failure = guarded.withLock { state -> ResolutionError? in
            if let failure = state.failure { return failure }
            state.claims.append(claim)
            return nil
        }
        if let failure {
            claim.abandon(failure, false)
            siblings.failed(ObjectIdentifier(registration), error: failure, retry: false)
        } else {
            siblings.made(registration, instance: instance)
        }
    }

    /// Abandons the shared instances `scope` made: a resolve that joined this one failed.
    func abandonClaims(of scope: AsyncScope, because error: ResolutionError) {
        let identity = ObjectIdentifier(scope)
        let abandoned = guarded.withLock { state -> [Claim] in
            let abandoned = state.claims.filter { $0.scope == identity }
            state.claims.removeAll { $0.scope == identity }
            return abandoned
        }
        abandon(abandoned, because: error, retry: Task.isCancelled || error.kind == .cancelled)
    }

    // MARK: Ending

    /// Ends a successful resolve: runs the queued completions, including those the resolves they
    /// make queue, waits for every resolve that joined to end, then publishes the shared
    /// instances it created.
    func finish() async throws(ResolutionError) {
        while true {
            try await rootScope.drain(in: self)
            // Until no resolve runs through the state (one a factory started and did not await).
            await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
                let hasEnded = guarded.withLock { state -> Bool in
                    guard state.joins > 0 else { return true }
                    state.finishing = ended
                    return false
                }
                if hasEnded { ended.resume() }
            }
            // Completions those resolves queued here run first; a resolve may have joined since.
            let isDone = guarded.withLock { state -> Bool in
                guard state.joins == 0, rootScope.isEmpty else { return false }
                state.isFinished = true
                return true
            }
            if isDone { break }
        }
        let claims = guarded.withLock { state in
            defer { state.claims = [] }
            return state.claims
        }
        for claim in claims { claim.publish() }
        drop()
    }

    /// Undoes a failed resolve: the shared instances it created are abandoned — their waiters get
    /// `error`, or claim again if this resolve was cancelled or `handingOver` (it will try again)
    /// — those claimed later too, and nothing queued runs.
    func fail(_ error: ResolutionError, handingOver: Bool = false) {
        let claims = guarded.withLock { state -> [Claim] in
            state.isFinished = true
            state.failure = error
            defer { state.claims = [] }
            return state.claims
        }
        abandon(claims, because: error, retry: handingOver || Task.isCancelled || error.kind == .cancelled)
        rootScope.drop()
        drop()
    }

    private func abandon(_ claims: [Claim], because error: ResolutionError, retry: Bool) {
        for claim in claims {
            claim.abandon(error, retry)
            siblings.failed(claim.registration, error: error, retry: retry)
        }
    }

    /// Lets the `.graph` instances and the made instances go, outside the lock: a resolution kept
    /// by one of them keeps this state, which must not keep them in turn.
    private func drop() {
        let dropped = guarded.withLock { state in
            defer {
                state.graph = [:]
                state.held = []
            }
            return (state.graph, state.held)
        }
        withExtendedLifetime(dropped) {}
        siblings.drop()
    }
}
