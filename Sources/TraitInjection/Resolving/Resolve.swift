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
@usableFromInline
final class Resolve: Sendable {
    enum Phase: Sendable { case running, succeeded, failed }

    /// A completion queued until the outermost factory of the resolve has returned.
    struct Pending {
        enum Run {
            case sync((Resolution) throws -> Void)
            case async((AsyncResolution) async throws -> Void)
        }
        let binding: Binding
        /// Where its resolves look up.
        let lookup: Container
        /// The shared instance it completes, if its scope shares one.
        let creation: Creation?
        /// The serial of the synchronous part of an async resolve that queued it, if one did: if
        /// that part unwinds to wait, what it made is dropped, and so is this.
        let part: UInt64?
        let run: Run
    }

    struct State {
        var phase = Phase.running
        var graph: [GraphEntry] = []
        var queue: [Pending] = []
        /// The completion of a shared instance that ``next(_:graph:describing:)`` took from
        /// `queue`, until ``Waits/beginCompletion(_:by:)`` begins it: a hand-over of the instance
        /// in between moves it with the queue (``Waits``).
        var dequeued: Pending?
        /// The shared instances it claimed, received from nested resolves or from other resolves
        /// (``Waits``): it publishes those it still owns when it succeeds.
        var claims: [Creation] = []
        /// The shared instances it handed to other resolves to end a deadlock; it ends only once
        /// each is published (``Waits``).
        var yielded: [Creation] = []
        /// For a synchronous part of an async resolve: the creation it must wait for by suspending,
        /// and the frame that waits for it (the part unwinds, and runs again after the wait).
        var suspension: (creation: Creation, frame: Frame?)?
        /// The record of this resolve's graph, once a ``Lazy`` is made in it.
        var record: GraphRecord?
        /// For an outermost resolve: the records made in its tree, which it settles when it ends.
        var records: [GraphRecord] = []
    }

    let outer: Resolve?
    /// The frame of the outer resolve's factory that started this one: where its path continues.
    let entry: Frame?
    /// Whether it runs a dry run (`verify()`): it makes every instance and keeps none.
    let findings: DryRunFindings?
    let tracer: ResolutionTracer?
    /// Whether it was started by an async resolve, directly or through an outer one: its
    /// synchronous parts never block a thread to wait (they unwind, and the task suspends).
    let isAsync: Bool
    /// Whether it is an async resolve itself, whose synchronous parts unwind to it.
    let drivesAsync: Bool
    /// Whether it makes one instance at its top (a plain `resolve`, not `autoInject(into:)`):
    /// then nothing of it asks for that instance's `.graph` entry once it is made.
    let makesOne: Bool
    /// For the first read of a ``Lazy``: the record of the graph of the resolve it was made in,
    /// whose `.graph` instances this resolve uses.
    let inherited: GraphRecord?
    let state: Locked<State>

    /// A top-level resolve from `container`, nested in the resolve of `entry` if that one still
    /// runs.
    ///
    /// A synchronous resolve nested in an async one `blocks` when it is called from an async
    /// factory or completion: nothing there would catch its unwinding, so it waits as any
    /// synchronous resolve does (but never for an async resolve's instance: ``Waits``).
    init(
        _ container: Container,
        entry: Frame?,
        isAsync: Bool,
        blocks: Bool = false,
        makesOne: Bool = false,
        findings: DryRunFindings? = nil,
        inheriting inherited: GraphRecord? = nil
    ) {
        let entry = entry?.resolve.isRunning == true ? entry : nil
        let outer = entry?.resolve
        self.outer = outer
        self.entry = entry
        self.findings = findings ?? outer?.findings
        tracer = outer?.tracer ?? container.currentTracer
        self.isAsync = isAsync || (!blocks && outer?.isAsync == true)
        drivesAsync = isAsync
        self.makesOne = makesOne && !self.isAsync
        isObserved = self.findings != nil || tracer != nil
        self.inherited = inherited
        state = Locked(State())
    }

    var isDryRun: Bool { findings != nil }

    /// Whether its resolves are traced or checked (a dry run): no shortcut skips them.
    let isObserved: Bool

    /// Whether it still runs: resolvers of it still work.
    @usableFromInline
    var isRunning: Bool { state.withLock { $0.phase == .running } }

    var root: Resolve { outer?.root ?? self }

    /// The async resolve its synchronous parts unwind to, to wait by suspending.
    var suspensionOwner: Resolve { drivesAsync ? self : outer?.suspensionOwner ?? self }

    /// The creation a synchronous part of this async resolve must wait for, if one must.
    var pendingSuspension: Creation? { suspensionOwner.state.withLock { $0.suspension?.creation } }

    /// Whether `other` belongs to the same outermost resolve.
    func isInTree(of other: Resolve) -> Bool { root === other.root }

    // MARK: The graph

    /// The `.graph` instance of `binding` made from `lookup` with these arguments, if any: this
    /// async resolve's, or else one of the graph it ``inherited``, which becomes this one's too (a
    /// ``Lazy`` made here sees it). (A synchronous resolve's graph is on its thread's stack.)
    func graphInstance(_ binding: Binding, from lookup: Container, _ values: ArgumentValues?) -> Any? {
        let hashed = binding.takesArguments ? values?.hashed : nil
        return state.withLock { state in
            if let own = state.graph.last(where: { $0.matches(binding, lookup, hashed) }) { return own.instance }
            guard values == nil, let found = inherited?.instance(of: binding, from: lookup) else { return nil }
            state.graph.append(GraphEntry(binding: binding, lookup: lookup, arguments: nil, instance: found))
            return found
        }
    }

    /// The record of this resolve's graph, for a ``Lazy`` made in it; the outermost resolve of
    /// its tree settles it.
    func lazyRecord() -> GraphRecord {
        let (record, isNew) = state.withLock { state -> (GraphRecord, Bool) in
            if let record = state.record { return (record, false) }
            let record = GraphRecord()
            state.record = record
            return (record, true)
        }
        if isNew { root.state.withLock { $0.records.append(record) } }
        return record
    }

    /// Keeps `instance` as the `.graph` instance of `binding` from `lookup` — unless `isLast`
    /// (it was made by the top frame of a resolve that ``makesOne``, with no completions of its
    /// own) and no completion is queued: then nothing of this resolve runs after it to ask for it.
    ///
    /// - Returns: The instance another task of the resolve kept first, if one did: that one is
    ///   the graph's.
    func keepGraphInstance(
        _ instance: Any,
        of binding: Binding,
        from lookup: Container,
        _ values: ArgumentValues?,
        isLast: Bool
    ) -> Any? {
        let hashed = binding.takesArguments ? values?.hashed : nil
        return state.withLock { state -> Any? in
            // A `Lazy` made in this resolve may ask for it.
            if isLast, state.queue.isEmpty, state.record == nil { return nil }
            let first = state.graph.last { $0.matches(binding, lookup, hashed) }
            if first == nil, state.phase == .running {
                state.graph.append(GraphEntry(binding: binding, lookup: lookup, arguments: hashed, instance: instance))
            }
            return first?.instance
        }
    }

    /// Whether anything of it runs after its top instance is made that may ask for that
    /// instance's `.graph` entry: a queued completion, or a ``Lazy`` made in it.
    var mayAskForGraph: Bool {
        state.withLock { !$0.queue.isEmpty || $0.record != nil }
    }

    // MARK: Completions and claims

    /// Queues `pending`; refused (`false`) once the resolve has ended: the caller lets it go.
    func enqueue(_ pending: [Pending]) -> Bool {
        state.withLock { state in
            guard state.phase == .running else { return false }
            state.queue += pending
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

    /// Completions run per top-level resolve before it gives up on a graph that keeps growing.
    static let completionLimit = 10_000

    // MARK: Ending

    /// What a successful resolve does next at its end.
    enum Next {
        /// Runs a queued completion.
        case run(Pending)
        /// Waits for an instance it handed over to be published, or to come back.
        case waitFor(Creation)
        /// Nothing: it has ended, and published (or handed to its outer resolve) what it made.
        case ended
    }

    /// The next step of a successful resolve's end: its queued completions, then what it handed
    /// over, then the end — which publishes what it claimed (the outermost resolve, or a nested
    /// one whose outer resolve has succeeded already), or hands it to the outer resolve.
    ///
    /// - Throws: The completion limit's error; a handed-over instance's failure; or
    ///   `resolverExpired` if the outer resolve has failed meanwhile (an async resolve started by
    ///   a task its factory did not await): nothing it made is kept.
    func next(
        _ runs: inout Int,
        graph: @autoclosure () -> [GraphEntry]? = nil,
        describing service: @autoclosure () -> String
    ) throws(ResolutionError) -> Next {
        enum Step {
            case run(Pending)
            /// The completion limit reached at one of this registration's, left in the queue.
            case tooMany(Binding)
            case handedOver([Creation])
            case end([Creation], [GraphEntry])
        }
        let step = state.withLock { state -> Step in
            if let first = state.queue.first {
                runs += 1
                guard runs <= Self.completionLimit else { return .tooMany(first.binding) }
                let pending = state.queue.removeFirst()
                if pending.creation != nil { state.dequeued = pending }
                return .run(pending)
            }
            if !state.yielded.isEmpty { return .handedOver(state.yielded) }
            state.record?.remember(graph() ?? state.graph, isRoot: outer == nil)
            for record in state.records { record.settle(succeeded: true) }
            state.phase = .succeeded
            defer { (state.claims, state.graph, state.suspension) = ([], [], nil) }
            return .end(state.claims, state.graph)
        }
        switch step {
        case .run(let pending):
            return .run(pending)
        case .tooMany(let binding):
            throw Self.tooManyCompletions(binding, path: entry.steps + [binding.step])
        case .handedOver(let yielded):
            if let unsettled = try Waits.shared.unsettled(yielded, of: self) { return .waitFor(unsettled) }
            state.withLock { $0.yielded.removeAll { creation in yielded.contains { $0 === creation } } }
            return try next(&runs, graph: graph(), describing: service())
        case .end(let claims, let made):
            let handedOver = claims.isEmpty || Waits.shared.settle(claims, endedBy: self)
            withExtendedLifetime(made) {}
            guard handedOver else { throw ResolutionError(kind: .resolverExpired, service: service()) }
            return .ended
        }
    }

    /// Undoes a failed resolve: what it claimed is abandoned (the resolves waiting for it claim
    /// it again), what it made and queued is let go — with no lock held, as the resolve still
    /// runs: a `deinit` may use a resolver of it, and what that queues or claims goes the same way.
    func fail() {
        while true {
            let taken = state.withLock { state -> (graph: [GraphEntry], queue: [Pending], claims: [Creation])? in
                guard !state.graph.isEmpty || !state.queue.isEmpty || !state.claims.isEmpty else {
                    for record in state.records { record.settle(succeeded: false) }
                    state.phase = .failed
                    state.suspension = nil
                    return nil
                }
                defer { (state.graph, state.queue, state.claims) = ([], [], []) }
                return (state.graph, state.queue, state.claims)
            }
            guard let taken else { break }
            let abandoned = Waits.shared.abandon(taken.claims, by: self, because: nil, queue: taken.queue)
            withExtendedLifetime((taken, abandoned)) {}
        }
    }

    /// The most services a chain of dependencies may nest; a deeper one throws `.tooDeep`.
    static var maximumDepth: Int { 10_000 }

    /// The error of a completion that keeps queueing more, at the completion of `binding`.
    static func tooManyCompletions(_ binding: Binding, path: [ResolutionError.Step]) -> ResolutionError {
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

/// A `.graph` instance, with the registration and container it was made by and from (held: their
/// identities are the key), and its runtime arguments, hashed.
struct GraphEntry {
    let binding: Binding
    let lookup: Container
    /// Its arguments, if it has some, in a box: an entry without any is copied and destroyed
    /// without asking an `ArgumentValues?`'s value witnesses.
    private let boxed: Boxed?
    let instance: Any
    /// On a ``ResolveStack``: the top it belongs to.
    let top: Int

    private final class Boxed {
        let arguments: ArgumentValues
        init(_ arguments: ArgumentValues) { self.arguments = arguments }
    }

    init(binding: Binding, lookup: Container, arguments: ArgumentValues?, instance: Any, top: Int = 0) {
        self.binding = binding
        self.lookup = lookup
        boxed = arguments.map(Boxed.init)
        self.instance = instance
        self.top = top
    }

    var arguments: ArgumentValues? { boxed?.arguments }

    /// Whether it is the instance of `binding` from `lookup` with `values` (hashed), which the
    /// binding takes if it `takesArguments` (and only then are they compared: asking an
    /// `ArgumentValues?` anything goes through witnesses).
    func matches(_ binding: Binding, _ lookup: Container, _ values: @autoclosure () -> ArgumentValues?) -> Bool {
        guard self.binding === binding, self.lookup === lookup else { return false }
        guard binding.takesArguments else { return true }
        let values = values()
        if let hash = boxed?.arguments.hash, let other = values?.hash, hash != other { return false }
        return arguments.matches(values)
    }
}
