import Synchronization

/// The state of one top-level async resolve, shared by its factories and the child tasks they
/// start: the `.graph` instances, the shared instances it created (published when it succeeds),
/// and the `initCompleted` closures queued until its outermost factory has returned.
///
/// Who sees what, and when:
/// - `.graph` instances are shared within the task that started the resolve, which outlives it.
///   A child task a factory starts gets instances of its own, not shared: they need not be
///   `Sendable`, and another task may be using them at the same time. (A task is known only by
///   its address, which a finished child task's successor may reuse; the starting task's cannot
///   be reused while the resolve lasts.)
/// - A shared (`.container`, `.weak`) instance is claimed in its registration's
///   ``AsyncInstanceCell`` while it is made; other resolves wait. It is published only by
///   ``finish(in:)``, after every completion has run; ``fail(_:)`` abandons it, and the waiters
///   get the error.
/// - No user code runs under the lock: completions, and instances released by a failure, run or
///   go after it.
final class AsyncResolveState: Sendable {
    /// A shared instance this resolve created, to publish when it succeeds.
    struct Claim {
        let publish: @Sendable () -> Void
        let abandon: @Sendable (any Error, Bool) -> Void
    }

    /// An `initCompleted` closure or auto-injection, with its instance.
    struct Completion {
        let registration: any AnyRegistration
        /// Where its resolves look up.
        let container: Container
        let run: Run

        enum Run {
            case sync((Resolution) throws -> Void)
            case async((AsyncResolution) async throws -> Void)
        }
    }

    private struct Guarded {
        /// `.graph` instances, by registration and lookup container.
        var graph: [GraphKey: Any] = [:]
        var claims: [Claim] = []
        var completions: [Completion] = []
        var isFinished = false
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

    init(isDryRun: Bool = false) {
        number = Self.numbers.wrappingAdd(1, ordering: .relaxed).newValue
        self.isDryRun = isDryRun
        startingTask = Self.currentTask
    }

    private static var currentTask: Int {
        withUnsafeCurrentTask { $0?.hashValue ?? 0 }
    }

    /// Whether the resolve is still running: resolutions of it may resolve.
    var isActive: Bool {
        !guarded.withLock(\.isFinished)
    }

    // MARK: The graph

    /// Whether the calling task shares `.graph` instances: it is the one that started the resolve.
    var sharesGraph: Bool {
        Self.currentTask == startingTask
    }

    /// The `.graph` instance of `key`, if any.
    func graphInstance<Service>(_ key: GraphKey, as _: Service.Type) -> Service? {
        guarded.withLock { $0.graph[key] } as? Service
    }

    /// Keeps `instance` as the `.graph` instance of `key`.
    func keepGraphInstance(_ instance: Any, for key: GraphKey) {
        guarded.withLock { $0.graph[key] = instance }
    }

    // MARK: Shared instances

    /// Records a shared instance this resolve created in `cell`, to publish when it succeeds.
    func addClaim<Service>(_ instance: Service, of registration: Registration<Service>, weakly: Bool) {
        let cell = registration.asyncCell
        // The instance is `Sendable` in practice: only `.container` and `.weak` registrations,
        // which `Scope` offers for `Sendable` services only, claim a cell.
        let box = UncheckedBox(instance)
        let claim = Claim(
            publish: { cell.publish(box.value, weakly: weakly) },
            abandon: { error, retry in cell.abandon(error, retry: retry) }
        )
        guarded.withLock { $0.claims.append(claim) }
        siblings.made(ObjectIdentifier(registration), instance: instance)
    }

    // MARK: Completions

    /// Queues `completion` until the outermost factory has returned.
    func enqueue(_ completion: Completion) {
        guarded.withLock { $0.completions.append(completion) }
    }

    /// Ends a successful resolve: runs the queued completions, including those the resolves they
    /// make queue, then publishes the shared instances it created.
    func finish(in container: Container) async throws(ResolutionError) {
        var runs = 0
        while let next = guarded.withLock({ $0.completions.isEmpty ? nil : $0.completions.removeFirst() }) {
            runs += 1
            guard runs <= ResolutionContext.completionLimit else {
                throw ResolutionError(
                    kind: .factoryFailed,
                    service: next.registration.step.service,
                    path: [next.registration.step],
                    underlyingError: """
                        more than \(ResolutionContext.completionLimit) initCompleted closures ran in one \
                        resolve: a closure keeps creating new instances. Keep services that close a cycle \
                        in the `.graph` scope (the default) rather than `.transient`.
                        """
                )
            }
            let frame = AsyncFrame(next.registration, argumentHash: nil, outer: nil)
            let resolution = AsyncResolution(state: self, frame: frame, container: next.container)
            try await resolution.run(next)
        }
        let claims = guarded.withLock { state -> [Claim] in
            state.isFinished = true
            defer { state.claims = [] }
            return state.claims
        }
        for claim in claims { claim.publish() }
        dropGraph()
    }

    /// Undoes a failed resolve: the shared instances it created are abandoned — their waiters get
    /// `error`, or claim again if this resolve was cancelled or `handingOver` (it will try again)
    /// — and nothing queued runs.
    func fail(_ error: ResolutionError, handingOver: Bool = false) {
        let (claims, dropped) = guarded.withLock { state -> ([Claim], [Completion]) in
            state.isFinished = true
            defer {
                state.claims = []
                state.completions = []
            }
            return (state.claims, state.completions)
        }
        let retry = handingOver || Task.isCancelled || error.kind == .cancelled
        for claim in claims { claim.abandon(error, retry) }
        // The instances and closures go here, with no lock held.
        withExtendedLifetime(dropped) {}
        dropGraph()
    }

    /// Lets the `.graph` instances go, outside the lock.
    private func dropGraph() {
        let graph = guarded.withLock { state in
            defer { state.graph = [:] }
            return state.graph
        }
        withExtendedLifetime(graph) {}
    }
}

/// A value that is `Sendable` by an invariant its user states.
@usableFromInline
struct UncheckedBox<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}
