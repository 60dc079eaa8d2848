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
///   ``AsyncInstanceCell`` while it is made; other resolves wait. It is published once the resolve
///   has succeeded and every completion of the scope (``AsyncScope``) that made it has run: by
///   ``finish()`` for the top-level resolve and for `resolveAsync` calls inside factories that
///   ended before it, by such a call itself if it ends later. If the resolve, or the scope that
///   made it, fails, it is abandoned and the waiters get the error.
/// - Resolves join the state while they run (``join()``/``leave()``), so that what their paths
///   refer to is held until the last of them has left; nothing waits for them. A resolve that
///   comes too late — its scope's completions have run, or the resolve has ended: a task a
///   factory started and did not await — keeps nothing and fails with
///   ``ResolutionError/Kind-swift.enum/resolverExpired``.
/// - No user code runs under the lock: completions, and instances released by a failure, run or
///   go after it.
final class AsyncResolveState: Sendable {
    /// A shared instance this resolve created, to publish when it succeeds.
    struct Claim {
        /// The scope that made it, which abandons it if it fails.
        let scope: AsyncScope
        let registration: ObjectIdentifier
        let publish: @Sendable () -> Void
        let abandon: @Sendable (any Error, Bool) -> Void
    }

    private struct Guarded {
        /// `.graph` instances, by registration and lookup container, with both, so that no other
        /// registration or container takes their address meanwhile.
        var graph: [GraphKey: (owners: [AnyObject], instance: Any)] = [:]
        var claims: [Claim] = []
        /// Resolves running through this state.
        var joins = 0
        var isFinished = false
        /// Why the resolve failed, for claims made after it did.
        var failure: ResolutionError?
        /// The registrations resolved, held until the resolve has ended and every resolve has
        /// left: the frames of its paths do not retain theirs.
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

    /// For a dry run: where the lifetime problems it finds go.
    let dryRunFindings: DryRunFindings?

    /// Where its resolves are traced, if they are.
    let tracer: ResolutionTracer?

    init(isDryRun: Bool = false, dryRunFindings: DryRunFindings? = nil, tracer: ResolutionTracer? = nil) {
        number = Self.numbers.wrappingAdd(1, ordering: .relaxed).newValue
        self.isDryRun = isDryRun
        self.dryRunFindings = dryRunFindings
        self.tracer = tracer
        startingTask = Self.currentTask
    }

    private static var currentTask: Int {
        withUnsafeCurrentTask { $0?.hashValue ?? 0 }
    }

    // MARK: Joining

    /// Starts a resolve in `scope` through this state, unless it comes too late: the resolve has
    /// failed, or the scope's completions have run (for the top-level scope: the resolve has
    /// ended). Then `false`.
    func join(in scope: AsyncScope) -> Bool {
        guarded.withLock { state in
            guard state.failure == nil, !scope.isClosed else { return false }
            state.joins += 1
            return true
        }
    }

    /// Ends a resolve started by ``join()``; the last to leave an ended resolve lets go of what it
    /// held.
    func leave() {
        let isLast = guarded.withLock { state -> Bool in
            state.joins -= 1
            return state.joins == 0 && state.isFinished
        }
        if isLast { drop() }
    }

    /// Holds `object` — a registration the frames of a path refer to, or a container a resolution
    /// looks up from — until the resolve has ended and the last resolve has left.
    func hold(_ object: AnyObject) {
        guarded.withLock { $0.held.append(object) }
    }

    // MARK: The graph

    /// Whether the calling task shares `.graph` instances: it is the one that started the resolve,
    /// which has not ended (the starting task may end after it, and another task take its address).
    var sharesGraph: Bool {
        Self.currentTask == startingTask && !guarded.withLock(\.isFinished)
    }

    /// The `.graph` instance of `key`, if any.
    func graphInstance<Service>(_ key: GraphKey, as _: Service.Type) -> Service? {
        guarded.withLock { $0.graph[key]?.instance } as? Service
    }

    /// Keeps `instance` as the `.graph` instance of `key`, with the registration and container
    /// the key names (held, so that their addresses are not reused while the key lasts).
    func keepGraphInstance(_ instance: Any, for key: GraphKey, owners: [AnyObject]) {
        guarded.withLock { $0.graph[key] = (owners, instance) }
    }

    /// Every `.graph` instance, for a synchronous resolve of this task to start from.
    var graphInstances: [GraphKey: Any] {
        guarded.withLock { $0.graph.mapValues(\.instance) }
    }

    // MARK: Shared instances

    /// Records a shared instance made in `scope`, to publish when the resolve succeeds.
    ///
    /// - Returns: `false` if the claim came too late — the resolve has failed, or the scope's
    ///   completions have run — and was abandoned: its waiters claim again.
    func addClaim<Service>(
        _ instance: Service,
        of registration: Registration<Service>,
        weakly: Bool,
        in scope: AsyncScope,
        needsNoCompletion: Bool
    ) -> Bool {
        let cell = registration.asyncCell
        // The instance is `Sendable` in practice: only `.container` and `.weak` registrations,
        // which `Scope` offers for `Sendable` services only, claim a cell.
        let box = UncheckedBox(instance)
        let claim = Claim(
            scope: scope,
            registration: ObjectIdentifier(registration),
            publish: { cell.publish(box.value, weakly: weakly) },
            abandon: { error, retry in cell.abandon(error, retry: retry) }
        )
        let isAccepted = guarded.withLock { state -> Bool in
            guard state.failure == nil, !scope.isClosed else { return false }
            state.claims.append(claim)
            return true
        }
        if isAccepted {
            siblings.made(registration, instance: instance, in: scope, needsNoCompletion: needsNoCompletion)
        } else {
            let late = ResolutionError(kind: .resolverExpired, service: registration.step.service)
            abandon([claim], because: late, retry: true)
        }
        return isAccepted
    }

    /// Gives up the creation of `registration`'s shared instance, which failed before it was
    /// claimed: the waiters in other resolves and in this one get `error`, or claim again if
    /// `retry`.
    func abandonCreation<Service>(of registration: Registration<Service>, because error: ResolutionError, retry: Bool) {
        registration.asyncCell.abandon(error, retry: retry)
        siblings.failed(ObjectIdentifier(registration), error: error, retry: retry)
    }

    /// Abandons the shared instances `scope` made: a resolve that joined this one failed.
    func abandonClaims(of scope: AsyncScope, because error: ResolutionError) {
        let (abandoned, dropped) = guarded.withLock { state -> ([Claim], [AsyncScope.Completion]) in
            let dropped = scope.close()
            let abandoned = state.claims.filter { $0.scope === scope }
            state.claims.removeAll { $0.scope === scope }
            return (abandoned, dropped)
        }
        abandon(abandoned, because: error, retry: Task.isCancelled || error.kind == .cancelled)
        // The completions and their instances go here, with no lock held.
        withExtendedLifetime(dropped) {}
    }

    // MARK: Ending

    /// Ends a successful resolve: runs the queued completions, including those the resolves they
    /// make queue, then publishes the shared instances made by the top-level resolve and by the
    /// `resolveAsync` calls inside it that have ended.
    func finish() async throws(ResolutionError) {
        var finished: (claims: [Claim], isIdle: Bool)?
        while finished == nil {
            try await rootScope.drain(in: self)
            finished = guarded.withLock { state -> ([Claim], Bool)? in
                // Closed under the lock, only once nothing is queued: a claim is either taken
                // here with its completions run, or refused as late.
                guard rootScope.closeIfDrained() else { return nil }
                state.isFinished = true
                // Made by the top-level resolve, or by a call inside it that has ended (its scope
                // is closed); those of calls still running are theirs to publish.
                let isReady = { (claim: Claim) in claim.scope === self.rootScope || claim.scope.isClosed }
                let ready = state.claims.filter(isReady)
                state.claims.removeAll(where: isReady)
                return (ready, state.joins == 0)
            }
        }
        for claim in finished?.claims ?? [] { claim.publish() }
        if finished?.isIdle == true { drop() }
    }

    /// Ends a `resolveAsync` that ran inside a factory of this resolve: runs its scope's
    /// completions, then, if the resolve has already succeeded, publishes what the call made;
    /// otherwise leaves it to ``finish()``.
    ///
    /// - Throws: The completions' error; `resolverExpired` if the resolve has failed meanwhile
    ///   (what the call made was abandoned with it).
    func finish(_ scope: AsyncScope, of service: String) async throws(ResolutionError) {
        var claims: [Claim]?
        while claims == nil {
            try await scope.drain(in: self)
            let outcome = guarded.withLock { state -> (claims: [Claim], hasFailed: Bool)? in
                guard scope.closeIfDrained() else { return nil }
                guard state.failure == nil else { return ([], true) }
                guard state.isFinished else { return ([], false) }
                let mine = state.claims.filter { $0.scope === scope }
                state.claims.removeAll { $0.scope === scope }
                return (mine, false)
            }
            if outcome?.hasFailed == true { throw ResolutionError(kind: .resolverExpired, service: service) }
            claims = outcome?.claims
        }
        for claim in claims ?? [] { claim.publish() }
    }

    /// Undoes a failed resolve: the shared instances it created are abandoned — their waiters get
    /// `error`, or claim again if this resolve was cancelled or `handingOver` (it will try again)
    /// — those claimed later too, and nothing queued runs.
    func fail(_ error: ResolutionError, handingOver: Bool = false) {
        let (claims, dropped, isIdle) = guarded.withLock { state -> ([Claim], [AsyncScope.Completion], Bool) in
            state.isFinished = true
            state.failure = error
            defer { state.claims = [] }
            return (state.claims, rootScope.close(), state.joins == 0)
        }
        abandon(claims, because: error, retry: handingOver || Task.isCancelled || error.kind == .cancelled)
        // The completions and their instances go here, with no lock held.
        withExtendedLifetime(dropped) {}
        if isIdle { drop() }
    }

    private func abandon(_ claims: [Claim], because error: ResolutionError, retry: Bool) {
        for claim in claims {
            claim.abandon(error, retry)
            siblings.failed(claim.registration, error: error, retry: retry)
        }
    }

    /// Lets the `.graph` instances, the made instances and the held registrations go, outside the
    /// lock, once the resolve has ended and no resolve runs through it: a resolution kept by one
    /// of them keeps this state, which must not keep them in turn.
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
