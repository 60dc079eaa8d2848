public import Synchronization

#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#else
    #error("TraitInjection supports Darwin, Glibc and Musl platforms.")
#endif

/// The state of one top-level resolve: its object graph, its path, its queued completions and
/// the kept instances it claimed, which are published only when it succeeds.
///
/// Each thread has one context for its top-level resolves (`ThreadContexts`); a top-level resolve
/// started while another runs on the same thread (a factory that calls `container.resolve`, an
/// `@Inject` read in an initializer) gets a context of its own, linked to the one it runs in
/// (`outer`). Together they form the thread's *chain*: cycles are looked for along the whole
/// chain, and the kept instances of the whole chain are published when its outermost resolve
/// succeeds (the *root*, which owns them as a ``CreationOwner``).
///
/// A context is confined to its thread while active. Contexts are never freed: they go back to a
/// pool, so a ``Resolution`` kept past its resolve can always check `activation` and expire.
@usableFromInline
final class ResolutionContext {
    /// Bumped when a resolve starts using this context and when it ends: odd while active. A
    /// ``Resolution`` compares it with its own, maybe on another thread.
    @usableFromInline let activationCount = Atomic<UInt64>(0)
    /// The thread using this context, as `pthread_self()` bits.
    @usableFromInline let thread = Atomic<UInt>(0)
    /// Set by a `register` that recorded this context's activation as a reader of the snapshot
    /// it retired: the root that ends with it set releases what has become unread
    /// (`PendingSnapshots`).
    @usableFromInline let mustReclaim = Atomic<Bool>(false)

    // Confined to the thread while active, and never re-entered, so the dynamic exclusivity
    // checks (a quarter of a transient resolve) are turned off for them.
    @usableFromInline @exclusivity(unchecked) var graph = GraphInstances()
    @usableFromInline @exclusivity(unchecked) var path = ResolutionPath()
    /// For each frame of a registration that takes runtime arguments, its key (`nil` if an
    /// argument is not `Hashable`), for telling a recursion with other arguments from a cycle.
    @usableFromInline @exclusivity(unchecked) var argumentFrames: [ArgumentKey?] = []
    /// The keys in `argumentFrames`.
    @usableFromInline @exclusivity(unchecked) var activeArguments: Set<ArgumentKey> = []
    /// The graph-scoped instances of registrations that take runtime arguments, by their values.
    @usableFromInline @exclusivity(unchecked) var graphByArguments: [GraphArgumentKey: Any] = [:]
    /// Completions (`initCompleted`, auto-injection) queued until the outermost factory returns.
    @usableFromInline @exclusivity(unchecked) var pending: [PendingCompletion] = []
    /// Root only: the kept instances the chain created, published when the root succeeds.
    @usableFromInline @exclusivity(unchecked) var claims: [any ClaimedInstance] = []
    @usableFromInline @exclusivity(unchecked) var activation: UInt64 = 0
    @usableFromInline @exclusivity(unchecked) var isInUse = false
    @usableFromInline @exclusivity(unchecked) var isDryRun = false
    /// For a dry run of ``Container/verify()``: where the lifetime problems it finds go.
    var dryRunFindings: DryRunFindings?
    /// Where the resolves of this context are traced, if they are.
    var tracer: ResolutionTracer?
    /// The depth in the trace of the async resolve this synchronous one runs in.
    var traceDepthOffset = 0
    /// Whether a resolve takes the observed path (`resolveObserved`): in a dry run, or traced.
    @usableFromInline @exclusivity(unchecked) var isObserved = false
    var isDraining = false
    /// Whether this is its thread's outermost context.
    @usableFromInline @exclusivity(unchecked) var isRoot = false
    /// The outermost context of this thread's chain (itself for a root).
    @usableFromInline @exclusivity(unchecked) unowned(unsafe) var root: ResolutionContext! = nil
    /// The context this nested one runs in.
    @usableFromInline @exclusivity(unchecked) unowned(unsafe) var outer: ResolutionContext?
    /// Root only: the innermost active context of the chain.
    @usableFromInline @exclusivity(unchecked) unowned(unsafe) var innermost: ResolutionContext?
    /// The stack of the thread the chain runs on.
    @usableFromInline @exclusivity(unchecked) var stack = ThreadStack()
    /// For a nested context: how many of the root's claims it found when it started.
    @usableFromInline var claimsAtStart = 0
    /// How deep in its thread's chain this context is: 0 for a root.
    @usableFromInline var nesting = 0
    /// How many services the contexts this one is nested in are creating: 0 for a root. (Past
    /// ``maximumNesting`` nested resolves, ``maximumDepth``, so that the chain stops there.)
    @usableFromInline @exclusivity(unchecked) var depthBase = 0

    /// Completions run per top-level resolve before it gives up on a graph that keeps growing.
    static let completionLimit = 10_000

    init() {}

    // MARK: Identity

    /// Whether a ``Resolution`` of `activation` may use this context now: on its thread, during
    /// that activation.
    @inlinable @inline(__always)
    func isCurrent(_ activation: UInt64) -> Bool {
        activationCount.load(ordering: .relaxed) == activation
            && thread.load(ordering: .relaxed) == currentThreadBits()
    }

    /// Whether this thread's stack is nearly used up.
    @inlinable @inline(__always)
    var isStackLow: Bool {
        stack.isLow
    }

    /// The resolver handed to factories and completions that look up from `container`.
    @inlinable @inline(__always)
    func resolution(from container: Container) -> Resolution {
        Resolution(context: self, activation: activation, container: container)
    }

    /// Who owns the kept instances this chain creates.
    @usableFromInline
    var owner: CreationOwner {
        CreationOwner(resolve: ObjectIdentifier(root), generation: root.activation)
    }

    // MARK: Resolving

    /// Resolves `service` registered under `name` with `arguments`, looked up from `container`.
    ///
    /// Called while this context is active: the snapshot the registration is found in, and so the
    /// registration, stay alive until the context ends, without being retained
    /// (`Container+Registry.swift`).
    @inlinable
    func resolve<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        from container: Container,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        guard let found = container.registration(for: key) else {
            return try resolveUnregistered(service, from: container, name: name, arguments: repeat each arguments)
        }
        return try found.withBorrowed { object throws(ResolutionError) in
            let registration = unsafeDowncast(object, to: Registration<Service>.self)
            if isObserved {
                return try resolveObserved(registration, key: key, from: container, arguments: repeat each arguments)
            }
            // A published singleton, inline: no call, no bookkeeping.
            if registration.scope == .container, let kept = registration.cell.strongInstance { return kept }
            return try resolve(registration, from: container, arguments: repeat each arguments)
        }
    }

    /// Resolves `registration`, found from `container` under the key of `Service` and the
    /// argument types.
    @inlinable
    func resolve<Service, each Argument>(
        _ registration: Registration<Service>,
        from container: Container,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        let scope = registration.scope
        let identity = GraphKey(registration: ObjectIdentifier(registration), container: ObjectIdentifier(container))
        // A registration that takes runtime arguments is told apart by their values, for the
        // graph and for cycles (`nil` if one is not `Hashable`).
        let argumentKey = registration.takesArguments ? ArgumentKey(registration, repeat each arguments) : nil
        if let cached = cachedInstance(of: registration, from: container, argumentKey: argumentKey) { return cached }
        // A factory that awaits, or runs on the main actor: refused here if it cannot run.
        if registration.isolation != .none || registration.completesAsync.load(ordering: .acquiring) {
            try checkIsolation(registration)
        }
        if registration.takesArguments {
            if let argumentKey { try checkCycle(registration, key: argumentKey) }
        } else if path.index(of: registration) != nil || !isRoot {
            try checkCycle(registration)
        }

        // Not retained: the caller of the top-level resolve, or the child it was called on, holds it.
        unowned(unsafe) var lookup = container
        var claimedEpoch: UInt64?
        if scope.keepsInstance {
            if !isDryRun {
                switch try claim(registration) {
                case .instance(let instance): return instance
                case .create(let epoch): claimedEpoch = epoch
                case .createUnkept, .ownClaim: break
                }
            }
            // A kept instance is built from the registrations of the container that keeps it.
            lookup = registration.owner
        }

        if depthBase + path.count >= Self.maximumDepth {
            if claimedEpoch != nil { registration.cell.abandon(by: owner) }
            throw tooDeep(registration)
        }
        path.push(registration)
        if registration.takesArguments { pushArguments(argumentKey) }
        let instance: Service
        do {
            let factory = unsafeDowncast(registration.factory, to: FactoryBox<Service, repeat each Argument>.self)
            // Near the end of this thread's stack, the factory runs on a larger one.
            let handle = resolution(from: lookup)
            if isStackLow {
                instance = try callOnLargerStack(registration) { try factory(handle, repeat each arguments) }
            } else {
                instance = try factory(handle, repeat each arguments)
            }
        } catch {
            let wrapped = wrap(error)
            popFrame(registration)
            if claimedEpoch != nil { registration.cell.abandon(by: owner) }
            throw wrapped
        }
        popFrame(registration)

        if scope == .graph {
            if !registration.takesArguments {
                graph.insert(instance, for: identity)
            } else if let argumentKey {
                graphByArguments[GraphArgumentKey(arguments: argumentKey, container: identity.container)] = instance
            }
        }
        // Auto-injection of @Inject/@WeakInject properties, queued like initCompleted so cycles close.
        var completes = false
        if registration.autoInjects,
            let injection = registration.autoInjection.injection(into: instance, of: registration)
        {
            enqueue(injection, for: instance, of: registration, from: lookup)
            completes = true
        }
        if registration.hasCompletion {
            for completion in registration.completions {
                enqueue(completion, for: instance, of: registration, from: lookup)
            }
            completes = true
        }
        if let epoch = claimedEpoch {
            addClaim(
                Claimed(registration: registration, instance: instance, epoch: epoch, by: self, completes: completes))
        }
        return instance
    }

    /// Resolves `registration` in a dry run, where the lifetimes of the service being created and
    /// of `registration`, which it depends on, are checked, or in a traced resolve.
    @usableFromInline
    func resolveObserved<Service, each Argument>(
        _ registration: Registration<Service>,
        key: ServiceKey,
        from container: Container,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        dryRunFindings?.check(registration, ancestors: chainFrames())
        guard let tracer else { return try resolve(registration, from: container, arguments: repeat each arguments) }
        let depth = traceDepthOffset + depthBase + path.count
        let argumentKey = registration.takesArguments ? ArgumentKey(registration, repeat each arguments) : nil
        let isCached =
            cachedInstance(of: registration, from: container, argumentKey: argumentKey) != nil
            || (registration.scope.keepsInstance
                && root.claims.contains { ($0 as? Claimed<Service>)?.registration === registration })
        tracer.record(registration, depth: depth, isCached ? .cached : .created)
        do {
            return try resolve(registration, from: container, arguments: repeat each arguments)
        } catch {
            tracer.record(registration, depth: depth, .failed(error.kind))
            throw error
        }
    }

    /// The registrations being created on this thread's chain, innermost first: what keeps the
    /// instance a resolve makes, through nested top-level resolves too.
    func chainFrames() -> [any AnyRegistration] {
        var frames: [any AnyRegistration] = []
        var context: ResolutionContext? = self
        while let current = context {
            frames += current.path.frames.reversed().map(\.registration)
            context = current.outer
        }
        return frames
    }

    /// Starts tracing this top-level resolve into `container`'s tracer.
    @usableFromInline
    func startTrace(from container: Container) {
        tracer = container.currentTracer
        isObserved = isDryRun || tracer != nil
    }

    /// The instance `registration`'s scope has for this resolve, if any.
    @inlinable @inline(__always)
    func cachedInstance<Service>(
        of registration: Registration<Service>,
        from container: Container,
        argumentKey: ArgumentKey?
    ) -> Service? {
        switch registration.scope {
        case .graph:
            if registration.takesArguments {
                guard let argumentKey else { return nil }
                return graphByArguments[
                    GraphArgumentKey(arguments: argumentKey, container: ObjectIdentifier(container))]
                    as! Service?
            }
            let identity = GraphKey(
                registration: ObjectIdentifier(registration), container: ObjectIdentifier(container))
            return graph.instance(for: identity, as: Service.self)
        case .container:
            // A dry run makes every instance, as on a new container, to check what it needs.
            return isDryRun ? nil : registration.cell.strongInstance
        case .weak:
            return isDryRun ? nil : registration.cell.instance
        case .transient:
            return nil
        }
    }

    /// Pops the frame of `registration`, and its arguments.
    @inlinable @inline(__always)
    func popFrame(_ registration: any AnyRegistration) {
        path.pop()
        if registration.takesArguments, let key = argumentFrames.removeLast() { activeArguments.remove(key) }
    }

    @usableFromInline
    func pushArguments(_ key: ArgumentKey?) {
        argumentFrames.append(key)
        if let key { activeArguments.insert(key) }
    }

    /// Throws if `registration` is already being created on this thread's chain.
    @usableFromInline
    func checkCycle(_ registration: any AnyRegistration) throws(ResolutionError) {
        var context: ResolutionContext? = self
        while let current = context {
            if current.path.index(of: registration) != nil { throw cycleThroughChain(back: registration) }
            context = current.outer
        }
    }

    /// Throws if `registration` is already being created with the same arguments (`key`) on
    /// this thread's chain; a recursion with other arguments goes on.
    @usableFromInline
    func checkCycle(_ registration: any AnyRegistration, key: ArgumentKey) throws(ResolutionError) {
        var context: ResolutionContext? = self
        while let current = context {
            if current.activeArguments.contains(key) { throw cycleThroughChain(back: registration) }
            context = current.outer
        }
    }

    /// The contexts of this thread's chain, outermost first, ending with this one.
    func chain() -> [ResolutionContext] {
        var contexts = [self]
        while let outer = contexts.last?.outer { contexts.append(outer) }
        return contexts.reversed()
    }
}

/// A queued `initCompleted` closure or auto-injection, with its instance.
@usableFromInline
struct PendingCompletion {
    /// Not retained: the snapshot the resolve found it in keeps it until the activation ends, and
    /// completions run or are dropped before then.
    @usableFromInline unowned(unsafe) let registration: any AnyRegistration
    /// Where the completion's resolves look up, not retained: the resolve's caller keeps it.
    @usableFromInline unowned(unsafe) let container: Container
    @usableFromInline let run: (Resolution) throws -> Void

    @usableFromInline
    init(registration: any AnyRegistration, container: Container, run: @escaping (Resolution) throws -> Void) {
        self.registration = registration
        self.container = container
        self.run = run
    }
}

/// The current thread, as bits.
@inlinable @inline(__always)
func currentThreadBits() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
