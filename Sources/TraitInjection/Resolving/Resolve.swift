import Synchronization

/// The state of one top-level resolve, sync or async: its object graph, the completions it
/// queued, the shared instances it claimed, and whether it still runs.
///
/// A resolve started inside another one's factory (`container.resolve` there, an `@Inject`
/// property read in an initializer, a `resolveAsync` in an async factory or a task it started)
/// is *nested*: it has a graph and completions of its own, its path continues the outer one's,
/// and what it claimed goes to the outer resolve when it succeeds, to be published when the
/// outermost one does. An async resolve is the same object, shared by the tasks its factories
/// await (its state is behind a lock).
///
/// Lock order: ``Waits``' monitor, then a resolve's lock. Neither runs user code.
final class Resolve: Sendable {
    enum Phase: Sendable { case running, succeeded, failed }

    /// A completion queued until the outermost factory of the resolve has returned.
    struct Pending {
        enum Run {
            case sync((Resolution) throws -> Void)
            case async((AsyncResolution) async throws -> Void)
        }
        let binding: any AnyBinding
        /// Where its resolves look up.
        let lookup: Container
        /// The shared instance it completes, if its scope shares one.
        let creation: Creation?
        let run: Run
    }

    /// A `.graph` instance, with the registration and container it was made by and from (held:
    /// their identities are the key).
    struct GraphEntry {
        let binding: AnyObject
        let lookup: Container
        let arguments: ArgumentValues?
        let instance: Any
    }

    struct State {
        var phase = Phase.running
        /// The container resolved from, held while the resolve runs.
        var container: Container?
        var graph: [GraphEntry] = []
        var queue: [Pending] = []
        /// The shared instances it claimed, received from nested resolves or from other resolves
        /// (``Waits``): it publishes those it still owns when it succeeds.
        var claims: [Creation] = []
        /// The shared instances it handed to other resolves to end a deadlock; it ends only once
        /// each is published (``Waits``).
        var yielded: [Creation] = []
        /// For a synchronous part of an async resolve: the creation it must wait for by suspending.
        var suspension: Creation?
    }

    let outer: Resolve?
    /// The frame of the outer resolve's factory that started this one: where its path continues.
    let entry: Frame?
    /// Whether it runs a dry run (``Container/verify()``): it makes every instance and keeps none.
    let findings: DryRunFindings?
    let tracer: ResolutionTracer?
    /// Whether it was started by an async resolve, directly or through an outer one: its
    /// synchronous parts never block a thread to wait (they unwind, and the task suspends).
    let isAsync: Bool
    private let running = Atomic<Bool>(true)
    let state: Locked<State>

    /// A top-level resolve from `container`, nested in the resolve of `entry` if that one still
    /// runs.
    init(_ container: Container, entry: Frame?, isAsync: Bool, findings: DryRunFindings? = nil) {
        let entry = entry?.resolve.isRunning == true ? entry : nil
        let outer = entry?.resolve
        self.outer = outer
        self.entry = entry
        self.findings = findings ?? outer?.findings
        tracer = outer?.tracer ?? container.currentTracer
        self.isAsync = isAsync || outer?.isAsync == true
        state = Locked(State(container: container))
    }

    var isDryRun: Bool { findings != nil }

    /// Whether its resolves are traced or checked (a dry run): no shortcut skips them.
    var isObserved: Bool { findings != nil || tracer != nil }

    /// Whether it still runs: resolvers of it still work.
    var isRunning: Bool { running.load(ordering: .acquiring) }

    var root: Resolve { outer?.root ?? self }

    /// Whether `other` belongs to the same outermost resolve.
    func isInTree(of other: Resolve) -> Bool { root === other.root }

    // MARK: The graph

    /// The `.graph` instance of `binding` made from `lookup` with these arguments, if any.
    func graphInstance<Service, each Argument>(
        _ binding: Binding<Service>,
        from lookup: Container,
        _ arguments: repeat each Argument
    ) -> Service? {
        state.withLock { state in
            state.graph.last { entry in
                entry.binding === binding && entry.lookup === lookup
                    && (entry.arguments.map { $0.matches(repeat each arguments) } ?? true)
            }?.instance
        } as? Service
    }

    /// Keeps `instance` as the `.graph` instance of `binding` from `lookup`.
    ///
    /// - Returns: The instance another task of the resolve kept first, if one did: that one is
    ///   the graph's.
    func keepGraphInstance<Service, each Argument>(
        _ instance: Service,
        of binding: Binding<Service>,
        from lookup: Container,
        _ arguments: repeat each Argument
    ) -> Service? {
        let values = binding.takesArguments ? ArgumentValues(repeat each arguments) : nil
        // Arguments that are not all `Hashable` equal nothing: the instance is not shared.
        if let values, !values.matches(repeat each arguments) { return nil }
        let first = state.withLock { state -> Any? in
            let first = state.graph.last {
                $0.binding === binding && $0.lookup === lookup && ($0.arguments?.matches(repeat each arguments) ?? true)
            }
            if first == nil, state.phase == .running {
                state.graph.append(GraphEntry(binding: binding, lookup: lookup, arguments: values, instance: instance))
            }
            return first?.instance
        }
        return first.map { $0 as! Service }
    }

    // MARK: Completions and claims

    /// Queues `pending`; refused (`false`) once the resolve has ended: the caller lets it go.
    func enqueue(_ pending: Pending) -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            state.queue.append(pending)
            return true
        }
    }

    /// Records a claim; refused (`false`) once the resolve has ended.
    func addClaim(_ creation: Creation) -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            state.claims.append(creation)
            return true
        }
    }

    /// The next queued completion, if any.
    func nextPending() -> Pending? {
        state.withLock { $0.queue.isEmpty ? nil : $0.queue.removeFirst() }
    }

    /// Completions run per top-level resolve before it gives up on a graph that keeps growing.
    static let completionLimit = 10_000

    // MARK: Ending

    /// Ends a successful resolve once its queue is empty: publishes what it claimed (the
    /// outermost resolve, or a nested one whose outer resolve has already succeeded), or hands
    /// it to the outer resolve.
    ///
    /// - Returns: `false` if completions were queued meanwhile (drain again).
    /// - Throws: `resolverExpired` if the outer resolve has failed meanwhile (an async resolve
    ///   started by a task its factory did not await): nothing it made is kept.
    func end(describing service: @autoclosure () -> String) throws(ResolutionError) -> Bool {
        let ended = state.withLock { state -> [Creation]? in
            guard state.queue.isEmpty else { return nil }
            state.phase = .succeeded
            running.store(false, ordering: .releasing)
            defer { state.claims = [] }
            return state.claims
        }
        guard let claims = ended else { return false }
        let handedOver = Waits.shared.settle(claims, endedBy: self)
        release()
        guard handedOver else {
            throw ResolutionError(kind: .resolverExpired, service: service())
        }
        return true
    }

    /// Undoes a failed resolve: what it claimed is abandoned (the resolves waiting for it get
    /// `error`), what it made and queued is let go — with no lock held, as the resolve still runs:
    /// a `deinit` may use a resolver of it, and what that queues or claims goes the same way.
    func fail(_ error: ResolutionError) {
        while true {
            let taken = state.withLock { state -> (graph: [GraphEntry], queue: [Pending], claims: [Creation])? in
                guard !state.graph.isEmpty || !state.queue.isEmpty || !state.claims.isEmpty else {
                    state.phase = .failed
                    running.store(false, ordering: .releasing)
                    return nil
                }
                defer { (state.graph, state.queue, state.claims) = ([], [], []) }
                return (state.graph, state.queue, state.claims)
            }
            guard let taken else { break }
            let abandoned = Waits.shared.abandon(taken.claims, by: self, because: error)
            withExtendedLifetime((taken, abandoned)) {}
        }
        release()
    }

    /// Lets go of what only a running resolve needs, with no lock held.
    private func release() {
        let released = state.withLock { state in
            defer { (state.container, state.graph, state.queue, state.suspension) = (nil, [], [], nil) }
            return (state.container, state.graph, state.queue)
        }
        withExtendedLifetime(released) {}
    }

    /// The error of a completion that keeps queueing more, at the completion of `binding`.
    static func tooManyCompletions(_ binding: any AnyBinding, path: [ResolutionError.Step]) -> ResolutionError {
        ResolutionError(
            kind: .factoryFailed,
            service: binding.step.service,
            path: path,
            underlyingError: """
                more than \(completionLimit) initCompleted closures ran in one resolve: a closure keeps \
                creating new instances. Keep services that close a cycle in the `.graph` scope (the \
                default) rather than `.transient`.
                """
        )
    }
}
