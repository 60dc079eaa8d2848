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

/// The thread-local slot holding each thread's ``ResolutionContext``, reused by every top-level
/// resolve on that thread.
///
/// There is one slot in the process (thread-local keys are scarce); each container copies it,
/// so that a resolve reads it without the check of a lazily initialised global. When a thread
/// exits, its context goes back to the pool.
@usableFromInline
struct ThreadContexts: Sendable {
    @usableFromInline
    let key: pthread_key_t

    /// The process's slot.
    static let shared = ThreadContexts()

    private init() {
        key = makeThreadLocalKey(onExit: .recycleResolutionContext)
    }
}

extension ResolutionContext {
    /// Contexts no thread uses now. Contexts are never freed (a ``Resolution`` kept anywhere may
    /// still check one), so there are at most as many as threads resolving, and nested resolves,
    /// at the busiest moment.
    private static let pool = Locked.make([Unmanaged<ResolutionContext>]())

    /// A context for a top-level resolve on this thread: the thread's own one, or, if a resolve
    /// on this thread is using it, a nested one linked to it. Hand it back with ``release(_:)``.
    ///
    /// The result is not retained: contexts are never freed.
    @inlinable
    static func acquire(_ slot: ThreadContexts) -> Unmanaged<ResolutionContext> {
        guard let pointer = pthread_getspecific(slot.key) else { return acquireFirst(slot) }
        let base = Unmanaged<ResolutionContext>.fromOpaque(pointer)
        let isFree = base._withUnsafeGuaranteedRef { context in
            guard !context.isInUse else { return false }
            context.begin()
            return true
        }
        return isFree ? base : acquireNested(in: base)
    }

    /// Marks the context in use, in a new activation.
    @inlinable @inline(__always)
    func begin() {
        isInUse = true
        activation &+= 1
        // Sequentially consistent: before any lookup of this activation reads a snapshot, so that
        // a `register` that retires the snapshot sees this context active (Container+Registry).
        activationCount.store(activation, ordering: .sequentiallyConsistent)
    }

    /// This thread's first resolve: it gets a context of its own.
    @usableFromInline
    static func acquireFirst(_ slot: ThreadContexts) -> Unmanaged<ResolutionContext> {
        // The task-locals a resolve may read deep in a chain (those a helper thread takes over in
        // `callOnLargerStack`, and the tracer's) are made on first use, which instantiates their
        // metadata: deep in the runtime, too deep for a stack already nearly used up (under
        // AddressSanitizer). Made here, at the start of this thread's first resolve.
        _ = InjectorOverrides.$current
        _ = Container.$taskShared
        _ = ResolutionTracer.$isEmitting
        let context = take()
        context._withUnsafeGuaranteedRef { context in
            context.root = context
            context.isRoot = true
            context.innermost = context
            context.stack = ThreadStack.current()
            context.begin()
        }
        pthread_setspecific(slot.key, context.toOpaque())
        return context
    }

    /// A context for a top-level resolve started while `base` is in use on this thread.
    @usableFromInline
    static func acquireNested(in base: Unmanaged<ResolutionContext>) -> Unmanaged<ResolutionContext> {
        let nested = take()
        base._withUnsafeGuaranteedRef { root in
            nested._withUnsafeGuaranteedRef { context in
                context.root = root
                context.outer = root.innermost
                context.stack = root.stack
                context.claimsAtStart = root.claims.count
                context.nesting = (context.outer?.nesting ?? 0) + 1
                context.depthBase =
                    context.nesting >= maximumNesting
                    ? maximumDepth : (context.outer.map { $0.depthBase + $0.path.count } ?? 0)
                // A resolve nested in `verify()` keeps nothing either.
                context.isDryRun = context.outer?.isDryRun ?? false
                context.dryRunFindings = context.outer?.dryRunFindings
                context.tracer = context.outer?.tracer
                context.traceDepthOffset = context.outer?.traceDepthOffset ?? 0
                context.isObserved = context.isDryRun || context.tracer != nil
                context.begin()
                root.innermost = context
            }
        }
        return nested
    }

    /// Every context ever made, for ``activations()``.
    private static let all = Locked.make([Unmanaged<ResolutionContext>]())

    /// One activation of a context, as seen when a snapshot was retired.
    struct Activation {
        /// Not retained: contexts are never freed.
        unowned(unsafe) let context: ResolutionContext
        let count: UInt64

        /// Whether the context has moved on: no lookup of that activation remains.
        var hasEnded: Bool {
            context.activationCount.load(ordering: .sequentiallyConsistent) != count
        }
    }

    /// The contexts active now, with their activations, each marked to release what becomes
    /// unread when its chain's root ends (`mustReclaim`).
    static func activations() -> [Activation] {
        all.withLock { contexts in
            contexts.compactMap { unmanaged in
                let context = unmanaged.takeUnretainedValue()
                let count = context.activationCount.load(ordering: .sequentiallyConsistent)
                guard count & 1 == 1 else { return nil }
                context.mustReclaim.store(true, ordering: .relaxed)
                return Activation(context: context, count: count)
            }
        }
    }

    /// A context from the pool, or a new one, set up for this thread.
    private static func take() -> Unmanaged<ResolutionContext> {
        let context = pool.withLock { $0.popLast() } ?? makeContext()
        context._withUnsafeGuaranteedRef { context in
            context.thread.store(currentThreadBits(), ordering: .relaxed)
            // Nothing of its previous use carries over.
            context.nesting = 0
            context.claimsAtStart = 0
            context.depthBase = 0
        }
        return context
    }

    /// A new context, never freed.
    private static func makeContext() -> Unmanaged<ResolutionContext> {
        let context = Unmanaged.passRetained(ResolutionContext())
        all.withLock { $0.append(context) }
        return context
    }

    /// Hands back a context from ``acquire(_:)`` once its top-level resolve is done.
    @inlinable @inline(__always)
    static func release(_ context: ResolutionContext) {
        // The common case, a root that kept nothing (a cached singleton, a transient with no
        // dependencies): end the activation and mark it free.
        if context.isRoot, context.graph.isEmpty, context.pending.isEmpty, context.claims.isEmpty,
            context.argumentFrames.isEmpty, context.graphByArguments.isEmpty, !context.isObserved
        {
            context.activation &+= 1
            context.activationCount.store(context.activation, ordering: .releasing)
            context.path.removeAll()
            markFree(root: context)
            return
        }
        releaseKeeping(context)
    }

    /// ``release(_:)`` of a context that holds something.
    ///
    /// Everything the resolve kept is dropped here, while the context is still marked in use, so
    /// that a `deinit` that resolves again gets a nested context rather than this one.
    @usableFromInline
    static func releaseKeeping(_ context: ResolutionContext) {
        // First: a resolve that a `deinit` below starts is neither a dry run nor traced.
        context.isDryRun = false
        context.dryRunFindings = nil
        context.tracer = nil
        context.traceDepthOffset = 0
        context.isObserved = false
        // Kept instances claimed by resolves that a `deinit` started while this one finished or
        // failed: those resolves succeeded. Published before anything else is dropped, so that a
        // `deinit` below that wants one finds it rather than waiting for this thread.
        if context.isRoot, !context.claims.isEmpty { context.publishClaims() }
        context.activation &+= 1
        // After every use of what this activation's lookups borrowed.
        context.activationCount.store(context.activation, ordering: .releasing)
        context.path.removeAll()
        if !context.argumentFrames.isEmpty {
            context.argumentFrames.removeAll()
            context.activeArguments.removeAll()
        }
        if !context.pending.isEmpty { context.pending.removeAll() }
        if !context.graph.isEmpty { context.graph.removeAll() }
        if !context.graphByArguments.isEmpty { context.graphByArguments.removeAll() }
        guard !context.isRoot else {
            // Kept instances claimed by resolves that the instances dropped above started in
            // their `deinit`: those resolves succeeded.
            if !context.claims.isEmpty { context.publishClaims() }
            markFree(root: context)
            return
        }
        context.root.innermost = context.outer
        context.depthBase = 0
        context.isInUse = false
        context.outer = nil
        context.root = nil
        pool.withLock { $0.append(Unmanaged.passUnretained(context)) }
    }

    /// Marks a root whose activation has ended free; if a `register` recorded it (or its nested
    /// contexts, while it was active too) as a reader, releases the snapshots no resolve can read
    /// any more.
    @inlinable @inline(__always)
    static func markFree(root: ResolutionContext) {
        root.isInUse = false
        if root.mustReclaim.load(ordering: .relaxed) { releaseUnreadSnapshots(root) }
    }

    @usableFromInline
    static func releaseUnreadSnapshots(_ root: ResolutionContext) {
        root.mustReclaim.store(false, ordering: .relaxed)
        PendingSnapshots.releaseUnread()
    }

    /// Puts the context of an exiting thread back in the pool.
    static func recycle(_ pointer: UnsafeMutableRawPointer) {
        let context = Unmanaged<ResolutionContext>.fromOpaque(pointer)
        context._withUnsafeGuaranteedRef { context in
            context.thread.store(0, ordering: .relaxed)
            context.root = nil
            context.isRoot = false
            context.innermost = nil
        }
        pool.withLock { $0.append(context) }
    }

    /// Whether a top-level resolve is running on this thread.
    static func isResolving(_ slot: ThreadContexts) -> Bool {
        guard let pointer = pthread_getspecific(slot.key) else { return false }
        return Unmanaged<ResolutionContext>.fromOpaque(pointer).takeUnretainedValue().isInUse
    }
}
