/// The one wait graph: every resolve — on a thread or in a task — that waits for a shared
/// instance another is making, and every ``Creation``'s state, behind one monitor. This file holds
/// the waits and what they decide (cycles, hand-over, deadlock); the changes of a creation's state
/// (made, completed, published, abandoned) are with ``Creation``.
///
/// Waits are rare (only while a shared instance is first made), so one lock serves the process;
/// a blocked thread sleeps on its condition, a task suspends, and any change wakes them all to
/// look again. Before a resolve waits, it follows the waits:
///
/// - **Within one outermost resolve** (its nested resolves and the tasks its factories await) an
///   instance is shared as soon as it is made — by the resolve that made it; by the others once its
///   completions have run, since they would otherwise see it half-built (a cycle). A resolve
///   waits for another task of its tree to make one, unless that task waits, through others, for
///   something on its own path: a cycle.
/// - **Between outermost resolves**, an instance is shared once it is published, when the resolve
///   that made it succeeds. If the resolves wait for each other in a circle, the one that would
///   close it hands every instance it has made and that another resolve waits for — with the
///   completions still to run — to that resolve (``yield(_:detectedBy:)``): nothing is made twice,
///   and the waits go on. If what closes the circle is still being made (its factory needs the
///   other), that is a real deadlock: an error, nothing hangs.
///
/// Lock order: this monitor, then a slot's or a resolve's lock. No user code runs under it, and
/// values it lets go are returned to callers to release after it.
final class Waits: @unchecked Sendable {
    // `@unchecked Sendable`: `waits`, `lastNumber` and `suspended`, and the mutable fields of every
    // ``Creation``, are used only with `monitor` locked.
    static let shared = Waits()

    /// A resolve waiting for a creation, at `frame` (`nil`: at its end, for one it handed over).
    private struct Wait {
        let resolve: Resolve
        let frame: Frame?
        let creation: Creation
    }

    /// What a waiting resolve does next.
    private enum Decision {
        case instance(UncheckedBox<Any>)
        /// The creation is over: look at the slot again.
        case reclaim
        case wait
        /// Something changed (instances were handed over): decide again.
        case recheck
        case failed(ResolutionError)
    }

    private let monitor = Monitor()
    private var waits: [UInt64: Wait] = [:]
    private var lastNumber: UInt64 = 0
    private var suspended: [UInt64: CheckedContinuation<Void, Never>] = [:]

    private init() {}

    // MARK: Waiting

    /// Blocks until `creation` can be had: its instance, or `nil` to claim again.
    ///
    /// A synchronous part of an async resolve never blocks: it records the creation as the
    /// resolve's `suspension` and throws, and the task suspends where it can (``Resolve``).
    func wait(for creation: Creation, by resolve: Resolve, at frame: Frame?) throws(ResolutionError) -> Any? {
        monitor.lock()
        lastNumber += 1
        let number = lastNumber
        var resumed: [CheckedContinuation<Void, Never>] = []
        defer {
            waits[number] = nil
            monitor.unlock()
            for continuation in resumed { continuation.resume() }
        }
        while true {
            switch decide(creation, by: resolve, at: frame, waking: &resumed) {
            case .instance(let box): return box.value
            case .reclaim: return nil
            case .failed(let error): throw error
            case .recheck: continue
            case .wait:
                if resolve.isAsync {
                    resolve.suspensionOwner.state.withLock { $0.suspension = (creation, frame) }
                    throw ResolutionError.suspension(for: creation, at: frame)
                }
                // A main-actor instance an async resolve has made (on the main actor: its factory runs
                // nowhere else), waiting only for completions it does not run now: this thread, on
                // the main actor, takes it over, completes and publishes it, and the task gets it.
                if creation.binding.isMainActor, creation.owner.isAsync, creation.instance != nil,
                    creation.running == nil, MainQueue.isCurrent
                {
                    handOver(creation, to: resolve)
                    wake(&resumed)
                    continue
                }
                // An async resolve keeps what it makes until it ends, which may take this thread.
                if ResolvingThread.current.mayHoldUpTasks, leadsToAsync(from: creation) {
                    throw Self.wouldHoldUp(creation, at: frame)
                }
                if !resumed.isEmpty {
                    // Tasks woken by a hand-over resume before this thread sleeps; then decide again.
                    let waking = resumed
                    resumed = []
                    monitor.unlock()
                    for continuation in waking { continuation.resume() }
                    monitor.lock()
                    continue
                }
                // A new wait may make others lead to an async resolve: they look again.
                if waits[number] == nil { monitor.broadcast() }
                waits[number] = Wait(resolve: resolve, frame: frame, creation: creation)
                monitor.wait()
            }
        }
    }

    /// Suspends until `creation` can be had: its instance, or `nil` to claim again.
    func waitSuspending(for creation: Creation, by resolve: Resolve, at frame: Frame?) async throws(ResolutionError)
        -> Any?
    {
        let number = locked {
            lastNumber += 1
            return lastNumber
        }
        defer { locked { waits[number] = nil } }
        while true {
            if Task.isCancelled {
                throw ResolutionError(kind: .cancelled, service: creation.binding.step.service, path: frame.steps)
            }
            var decision = Decision.wait
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    var resumed: [CheckedContinuation<Void, Never>] = []
                    monitor.lock()
                    decision = decide(creation, by: resolve, at: frame, waking: &resumed)
                    if case .wait = decision, !Task.isCancelled {
                        waits[number] = Wait(resolve: resolve, frame: frame, creation: creation)
                        suspended[number] = continuation
                    } else {
                        resumed.append(continuation)
                    }
                    monitor.unlock()
                    for continuation in resumed { continuation.resume() }
                }
            } onCancel: {
                locked { suspended.removeValue(forKey: number) }?.resume()
            }
            switch decision {
            case .instance(let box): return box.value
            case .reclaim: return nil
            case .failed(let error): throw error
            case .recheck, .wait: continue
            }
        }
    }

    /// Decides what `resolve`, at `frame`, does about `creation`. Call with the monitor locked;
    /// continuations to resume once it is unlocked go to `resumed`.
    private func decide(
        _ creation: Creation,
        by resolve: Resolve,
        at frame: Frame?,
        waking resumed: inout [CheckedContinuation<Void, Never>]
    ) -> Decision {
        switch creation.outcome {
        case .published, .abandoned(nil): return .reclaim
        case .abandoned(let error?): return .failed(error)
        case .pending: break
        }
        let owner = creation.owner
        if owner.isInTree(of: resolve) {
            if let instance = creation.instance {
                if owner === resolve || creation.isComplete { return .instance(UncheckedBox(instance)) }
                // At its end: the other resolve of the tree completes it.
                guard let frame else { return .wait }
                // Its completions run when its owner ends: a cycle if that waits for this path — the
                // owner runs the factory this resolve is nested in, one of them is on this path, or
                // one waits for something on it. Else wait for them (a sibling task completes it).
                if sequence(first: resolve, next: \.outer).contains(where: { $0 === owner })
                    || frame.chain.contains(where: { $0.creation === creation })
                    || leadsBack(from: creation, to: frame)
                {
                    return .failed(.cycle(back: creation.binding, path: frame.steps))
                }
                return .wait
            }
            guard let frame else { return .wait }
            // Made further up this path, or by a task that waits for something on this path.
            if let creator = creation.creator, frame.chain.contains(where: { $0 === creator }) {
                return .failed(.cycle(back: creation.binding, path: frame.steps))
            }
            if leadsBack(from: creation, to: frame) {
                return .failed(.cycle(back: creation.binding, path: frame.steps))
            }
            return .wait
        }
        guard let circle = circle(from: owner.root, to: resolve.root, first: creation) else { return .wait }
        let handedOver = yield(resolve.root, detectedBy: frame)
        guard handedOver.isEmpty else {
            wake(&resumed)
            // Running a completion of what it handed over: that run is undone (it runs again there).
            if let frame, frame.chain.contains(where: { $0.isCompletion && handedOver.contains($0.creation) }) {
                return .failed(ResolutionError.interrupted(frame.steps))
            }
            return .recheck
        }
        var error = ResolutionError(
            kind: .deadlock, service: creation.service, path: frame.steps, relatedServices: circle.map(\.service))
        error.isBetweenTasks = resolve.isAsync
        return .failed(error)
    }

    /// Whether a task of the same tree that makes `creation` waits, through others, for something
    /// `frame`'s path makes: waiting for it would close a circle of waits.
    private func leadsBack(from creation: Creation, to frame: Frame) -> Bool {
        let onPath = Set(frame.chain.compactMap { $0.creation.map(ObjectIdentifier.init) })
        var visited: Set<ObjectIdentifier> = []
        var frontier = [creation]
        while let next = frontier.popLast() {
            if onPath.contains(ObjectIdentifier(next)) { return true }
            guard visited.insert(ObjectIdentifier(next)).inserted else { continue }
            for wait in waits.values where wait.resolve.isInTree(of: frame.resolve) {
                if wait.frame?.chain.contains(where: { $0.creation === next }) == true {
                    frontier.append(wait.creation)
                }
            }
        }
        return false
    }

    /// Whether `creation` is an async resolve's to make, or its maker waits, through others, for
    /// one that is.
    private func leadsToAsync(from creation: Creation) -> Bool {
        var visited: Set<ObjectIdentifier> = []
        var frontier = [creation]
        while let next = frontier.popLast() {
            if next.owner.isAsync { return true }
            let root = next.owner.root
            guard visited.insert(ObjectIdentifier(root)).inserted else { continue }
            for wait in waits.values where wait.resolve.root === root { frontier.append(wait.creation) }
        }
        return false
    }

    /// The creations along the waits from the tree of `start` to the tree of `goal`, `first`
    /// first, if the waits lead there.
    private func circle(from start: Resolve, to goal: Resolve, first: Creation) -> [Creation]? {
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(start)]
        var frontier: [(root: Resolve, path: [Creation])] = [(start, [first])]
        while !frontier.isEmpty {
            let (root, path) = frontier.removeFirst()
            if root === goal { return path }
            for wait in waits.values where wait.resolve.root === root {
                let next = wait.creation.owner.root
                if visited.insert(ObjectIdentifier(next)).inserted { frontier.append((next, path + [wait.creation])) }
            }
        }
        return nil
    }

    /// Hands every instance made in the tree of `root` that a resolve of another tree waits for to
    /// that resolve, with the completions it still has to run, unless another task of the tree
    /// runs one of them now. Call with the monitor locked.
    ///
    /// - Returns: What was handed over.
    private func yield(_ root: Resolve, detectedBy frame: Frame?) -> [Creation] {
        var handedOver: [Creation] = []
        for wait in waits.values where wait.resolve.root !== root {
            let creation = wait.creation
            guard creation.owner.root === root, creation.instance != nil, case .pending = creation.outcome,
                !handedOver.contains(where: { $0 === creation })
            else { continue }
            if creation.running != nil,
                frame?.chain.contains(where: { $0.isCompletion && $0.creation === creation }) != true
            {
                continue
            }
            handOver(creation, to: wait.resolve)
            handedOver.append(creation)
        }
        return handedOver
    }

    /// Hands `creation`, made in another tree, to `receiver`, with the completions still to run
    /// (the one running now, and one taken from the queue to begin, included): its owner waits for
    /// it at its end, and takes it back if `receiver` fails first. Call with the monitor locked.
    private func handOver(_ creation: Creation, to receiver: Resolve) {
        let previous = creation.owner
        var moved = creation.running.map { [$0] } ?? []
        creation.running = nil
        moved += previous.state.withLock { state in
            defer {
                state.queue.removeAll { $0.creation === creation }
                state.yielded.append(creation)
            }
            var taken = state.queue.filter { $0.creation === creation }
            if let dequeued = state.dequeued, dequeued.creation === creation {
                taken.insert(dequeued, at: 0)
                state.dequeued = nil
            }
            return taken
        }
        (creation.owner, creation.giver) = (receiver, previous)
        receiver.state.withLock { state in
            state.queue += moved
            state.claims.append(creation)
        }
    }

    /// The error of a synchronous resolve that would block where it ``ResolvingThread/mayHoldUpTasks`` for an
    /// instance an async resolve is making.
    private static func wouldHoldUp(_ creation: Creation, at frame: Frame?) -> ResolutionError {
        let resolving = frame.steps.isEmpty ? "" : ", resolving \(frame.steps.map(\.service).joined(separator: " → ")),"
        var error = ResolutionError(
            kind: .deadlock, service: creation.service, path: frame.steps,
            underlyingError: """
                A synchronous resolve on the main actor or in a task\(resolving) needs \(creation.service), \
                which an async resolve is creating (perhaps the one this runs in, in another of its \
                tasks), or a resolve that waits for one; an async resolve keeps what it makes until it \
                ends. Blocking this thread for it could stop that resolve from ever ending (it may need \
                this thread), so it does not wait: resolve it with `try await container.resolveAsync(…)` \
                here, or before the async resolve starts.
                """)
        error.isRefusedWait = true
        return error
    }

    // MARK: The monitor

    // `locked` and `changing` serve the changes of a creation's state too (``Creation``'s file).

    func locked<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        monitor.lock()
        defer { monitor.unlock() }
        return try body()
    }

    /// Runs `body` locked, then wakes every waiter to look again.
    func changing<Result>(_ body: () -> Result) -> Result {
        var resumed: [CheckedContinuation<Void, Never>] = []
        monitor.lock()
        let result = body()
        wake(&resumed)
        monitor.unlock()
        for continuation in resumed { continuation.resume() }
        return result
    }

    private func wake(_ resumed: inout [CheckedContinuation<Void, Never>]) {
        monitor.broadcast()
        resumed += suspended.values
        suspended = [:]
    }
}

extension Array where Element == Creation {
    func contains(_ creation: Creation?) -> Bool {
        contains { $0 === creation }
    }
}
