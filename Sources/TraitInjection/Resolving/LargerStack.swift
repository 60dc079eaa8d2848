import Dispatch

/// What the library keeps per thread: the stack of synchronous resolves it runs (its own, or on a
/// helper thread the stack of the thread it works for), the stack's limit, and on a helper thread
/// what it knows of that thread. Made on the thread's first resolve, released when it exits.
final class ResolvingThread {
    private static let slot = ThreadLocal<ResolvingThread>()

    /// The calling thread's.
    static var current: ResolvingThread {
        if let known = slot.value { return known }
        let made = ResolvingThread(stack: ResolveStack())
        slot.value = made
        return made
    }

    /// Runs `body` with the calling thread's, borrowed.
    static func with<Result, Failure: Error>(_ body: (ResolvingThread) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        try slot.withValue(body, absent: { () throws(Failure) in try body(current) })
    }

    let stack: ResolveStack
    /// On a helper thread of a chain that left the main actor, the thread that runs main-actor
    /// factories for it (``LargerStack/Caller``).
    let mainActorCaller: LargerStack.Caller?
    /// On a helper thread: whether the thread it works for could hold up a task by blocking.
    private let worksForTasks: Bool
    /// On a helper thread, the depth of the chain where it took over; 0 elsewhere.
    let firstDepth: Int

    private init(
        stack: ResolveStack, mainActorCaller: LargerStack.Caller? = nil, worksForTasks: Bool = false,
        firstDepth: Int = 0
    ) {
        self.stack = stack
        self.mainActorCaller = mainActorCaller
        self.worksForTasks = worksForTasks
        self.firstDepth = firstDepth
        if let (low, high) = Platform.stackBounds() {
            let margin = min(LargerStack.margin, (high - low) / 4 * 3)
            let mainActorMargin = min(2 * margin, (high - low) / 4 * 3)
            stackLimits = (low + margin, low + margin, low + mainActorMargin)
        } else {
            stackLimits = (0, 0, 0)
        }
        // Its marker is made on first use, deep in the runtime: here, not on a stack that is
        // nearly used up, where a chain moves to a helper thread and asks whether it runs there.
        _ = MainQueue.isCurrent
    }

    /// Below the first address the stack is nearly used up, and a chain goes on on a helper
    /// thread; below the second (the same: a whole margin, since a level of a factory with large
    /// locals under AddressSanitizer takes more than half of one) a factory that must run on this
    /// thread — a main-actor one on the main actor's — does not start; on the main actor's
    /// thread, a chain moves already below the third (twice as far), so that the main-actor
    /// factories the helper hands back have room while the thread waits. 0 where the platform
    /// does not say.
    let stackLimits: (low: UInt, exhausted: UInt, lowOnMainActor: UInt)

    /// Whether the caller runs on the main actor, or on a helper thread working for it.
    var canRunMainActor: Bool { mainActorCaller != nil || MainQueue.isCurrent }

    /// Whether a thread blocked here could hold up an async resolve: the main actor's, one of the
    /// cooperative pool's (it runs a task), or a helper thread working for either.
    var mayHoldUpTasks: Bool {
        worksForTasks || canRunMainActor || withUnsafeCurrentTask { $0 != nil }
    }

    /// Makes the calling thread, a new helper thread, work on `stack`.
    fileprivate static func startHelper(
        on stack: ResolveStack, mainActorCaller: LargerStack.Caller?, worksForTasks: Bool, at depth: Int
    ) {
        slot.value = ResolvingThread(
            stack: stack, mainActorCaller: mainActorCaller, worksForTasks: worksForTasks, firstDepth: depth)
    }
}

/// Deep chains of dependencies on small stacks: when a thread's stack is nearly used up (or it has
/// run ``levelsPerThread`` levels), the rest of the chain runs on a helper thread with a large
/// one, while the thread waits.
///
/// A thread that runs the main actor does not just wait: it runs, for the helper, the main-actor
/// factories further down the chain (``Caller``), so that they still run on the main actor.
enum LargerStack {
    /// The stack of each helper thread: reserved address space, committed only as it is used.
    static let helperStackSize = 64 * 1024 * 1024

    /// The room a thread keeps below the resolves it runs: 128 KiB, or three quarters of its stack
    /// if that is less. A level of resolution takes about 3.6 KiB in a release build, about 20 KiB
    /// in a debug one and about 35 KiB under AddressSanitizer.
    static let margin: UInt = 128 * 1024

    /// The most levels of a chain one thread runs, however large its stack: ThreadSanitizer
    /// keeps a shadow stack of 65,536 calls per thread, which the ~30 calls of a level in a debug
    /// build would fill at about 2,200 levels.
    static let levelsPerThread = 1_000

    /// Whether the calling thread's stack is nearly used up, for a factory `depth` levels deep.
    static func isLow(_ thread: ResolvingThread, at depth: Int) -> Bool {
        let frame = Platform.currentFrameAddress()
        // `lowOnMainActor` is at or above `low`: one comparison while the stack has room.
        if frame < thread.stackLimits.lowOnMainActor, frame < thread.stackLimits.low || MainQueue.isCurrent {
            return true
        }
        return depth - thread.firstDepth >= levelsPerThread
    }

    /// Whether the calling thread's stack is too nearly used up to start a factory that cannot
    /// move to a helper thread.
    static func isExhausted(_ thread: ResolvingThread) -> Bool {
        Platform.currentFrameAddress() < thread.stackLimits.exhausted
    }

    /// Runs `body`, a factory `depth` levels deep at the top of `stack`, on a helper thread with a
    /// large stack that works on `stack` meanwhile, and returns its result; the library's own task-local values
    /// (``Container/shared`` and injector default overrides) are bound there too.
    ///
    /// - Returns: `nil` if the system grants no helper thread.
    /// - Throws: What `body` throws.
    static func run<Result, Failure: Error>(
        _ stack: ResolveStack, from thread: ResolvingThread, at depth: Int, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        let caller = thread.mainActorCaller ?? (MainQueue.isCurrent ? Caller() : nil)
        let worksForTasks = thread.mayHoldUpTasks
        let overrides = InjectorOverrides.current
        let shared = Container.taskShared
        var outcome: Swift.Result<Result, Failure>?
        let ran = Platform.runOnNewThread(stackSize: helperStackSize) {
            ResolvingThread.startHelper(
                on: stack, mainActorCaller: caller, worksForTasks: worksForTasks, at: depth)
            outcome = InjectorOverrides.$current.withValue(overrides) {
                Container.$taskShared.withValue(shared) { () -> Swift.Result<Result, Failure> in
                    do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
                }
            }
            if thread.mainActorCaller == nil { caller?.finish() }
        } whileWaiting: {
            if thread.mainActorCaller == nil { caller?.serve() }
        }
        guard ran, let outcome else { return nil }
        return try outcome.get()
    }

    /// A thread on the main actor, waiting for a helper thread, that runs the helper's main-actor
    /// work meanwhile.
    final class Caller: @unchecked Sendable {
        // `@unchecked Sendable`: `pending`, `isDone` and `isFinished` are used only with
        // `monitor` locked; the work a helper hands over runs while the helper waits for it.
        private let monitor = Monitor()
        private var pending: (() -> Void)?
        private var isDone = false
        private var isFinished = false

        /// Runs `body` on the waiting thread (the main actor's), and waits for it.
        func run<Result>(_ body: () throws -> Result) throws -> Result {
            try withoutActuallyEscaping(body) { body in
                var outcome: Swift.Result<Result, any Error>?
                monitor.lock()
                pending = { outcome = Swift.Result { try body() } }
                isDone = false
                monitor.broadcast()
                while !isDone { monitor.wait() }
                monitor.unlock()
                return try outcome!.get()
            }
        }

        /// Serves the helper until it ends.
        fileprivate func serve() {
            monitor.lock()
            while !isFinished {
                if pending == nil {
                    monitor.wait()
                } else {
                    runPending()
                    isDone = true
                    monitor.broadcast()
                }
            }
            monitor.unlock()
        }

        /// Runs the pending work with the monitor unlocked; call with it locked. The work is let go
        /// before this returns, and so before the helper learns it is done.
        private func runPending() {
            let work = pending
            pending = nil
            monitor.unlock()
            work?()
            monitor.lock()
        }

        fileprivate func finish() {
            monitor.lock()
            isFinished = true
            monitor.broadcast()
            monitor.unlock()
        }
    }
}

/// Whether the caller runs on the main actor, asked without stopping the program when it does
/// not (`MainActor.assumeIsolated` traps, and Swift has no public check that does not).
///
/// The main actor's executor is the main dispatch queue, on Apple platforms and on Linux alike,
/// and the main thread counts as running it before the queue is serviced. The queue carries a
/// marker set on first use; `DispatchQueue.getSpecific` finds it exactly when the caller runs on
/// the main queue — which is what `MainActor.assumeIsolated` then checks. (On Linux, with
/// top-level `await`, the main actor does not run on the main thread, so a thread check would be
/// wrong.)
enum MainQueue {
    private static let marker: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller runs on the main queue, and so on the main actor.
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker) != nil
    }
}
