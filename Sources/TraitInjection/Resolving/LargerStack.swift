import Dispatch

/// What the library keeps per thread: the innermost frame whose factory or completion runs there
/// (a `container.resolve` called there is nested in its resolve), the stack's limit, and on a
/// helper thread the thread that runs its main-actor work. Made on the thread's first resolve,
/// released when the thread exits.
final class ResolvingThread {
    private static let slot = ThreadLocal<ResolvingThread>()

    /// Whether a resolve started on this thread now would be nested in an observed one (traced,
    /// or a dry run): no shortcut applies.
    static var isObserving: Bool {
        slot.value?.isObserving == true
    }

    /// The calling thread's.
    static var current: ResolvingThread {
        if let known = slot.value { return known }
        let made = ResolvingThread()
        slot.value = made
        return made
    }

    var innermost: Frame? {
        didSet { isObserving = innermost?.resolve.isObserved == true }
    }
    /// Whether the innermost frame's resolve is traced or a dry run: then no shortcut applies.
    private(set) var isObserving = false
    /// On a helper thread of a chain that left the main actor, the thread that runs main-actor
    /// factories for it (``LargerStack/Caller``).
    var mainActorCaller: LargerStack.Caller?

    /// Below this address the stack is nearly used up: 0 where the platform does not say.
    private(set) lazy var stackLimit: UInt = {
        guard let (low, high) = Platform.stackBounds() else { return 0 }
        return low + min(LargerStack.margin, (high - low) / 2)
    }()

    /// Whether the caller runs on the main actor, or on a helper thread working for it.
    var canRunMainActor: Bool { mainActorCaller != nil || MainQueue.isCurrent }
}

/// Deep chains of dependencies on small stacks: when a thread's stack is nearly used up, the rest
/// of the chain runs on a helper thread with a large one, while the thread waits.
///
/// A thread that runs the main actor does not just wait: it runs, for the helper, the main-actor
/// factories further down the chain (``Caller``), so that they still run on the main actor.
enum LargerStack {
    /// The stack of each helper thread: reserved address space, committed only as it is used.
    static let helperStackSize = 64 * 1024 * 1024

    /// The room a thread keeps below the resolves it runs: 128 KiB, or half its stack if that is
    /// less. A level of resolution takes about 1 KiB in a release build and a few in a debug one,
    /// more under AddressSanitizer.
    static let margin: UInt = 128 * 1024

    /// Whether the calling thread's stack is nearly used up.
    static func isLow(_ thread: ResolvingThread) -> Bool {
        Platform.currentFrameAddress() < thread.stackLimit
    }

    /// Runs `body`, the factory of `frame`, on a helper thread with a large stack, and returns its
    /// result; `frame` is the helper's innermost, and the library's own task-local values
    /// (``Container/shared`` and injector default overrides) are bound there too.
    ///
    /// - Throws: What `body` throws, or `.tooDeep` if the system grants no helper thread.
    static func run<Result>(at frame: Frame, from thread: ResolvingThread, _ body: () throws -> Result) throws -> Result
    {
        let caller = thread.mainActorCaller ?? (MainQueue.isCurrent ? Caller() : nil)
        let overrides = InjectorOverrides.current
        let shared = Container.taskShared
        var outcome: Swift.Result<Result, any Error>?
        let ran = Platform.runOnNewThread(stackSize: helperStackSize) {
            let helper = ResolvingThread.current
            helper.innermost = frame
            helper.mainActorCaller = caller
            outcome = InjectorOverrides.$current.withValue(overrides) {
                Container.$taskShared.withValue(shared) { Swift.Result { try body() } }
            }
            helper.innermost = nil
            if thread.mainActorCaller == nil { caller?.finish() }
        } whileWaiting: {
            if thread.mainActorCaller == nil { caller?.serve() }
        }
        guard ran, let outcome else {
            throw ResolutionError(
                kind: .tooDeep, service: frame.binding.step.service, path: Array(frame.steps.prefix(5)),
                depth: frame.depth)
        }
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
