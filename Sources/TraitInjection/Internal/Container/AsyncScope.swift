/// The completions one resolve queues: the top-level one's, or those of a `resolveAsync` called
/// inside a factory, which runs them before it returns, in its own task.
final class AsyncScope: Sendable {
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

    private struct Queue {
        var completions: [Completion] = []
        /// Set once the scope's completions have run: a resolve that queues one later came too
        /// late (a task its factory did not await) and fails.
        var isClosed = false
    }

    private let queue = Locked.make(Queue())

    init() {}

    /// Queues `completion` until the resolve of this scope has returned; lets it go at once if the
    /// scope is closed (it would never run, and it holds its container).
    func enqueue(_ completion: Completion) {
        let late = queue.withLock { queue -> Completion? in
            guard !queue.isClosed else { return completion }
            queue.completions.append(completion)
            return nil
        }
        withExtendedLifetime(late) {}
    }

    /// Closes the scope if nothing is queued: its completions have all run.
    ///
    /// - Returns: `false` if a completion was queued since the last drain: drain again.
    func closeIfDrained() -> Bool {
        queue.withLock { queue in
            guard queue.completions.isEmpty else { return false }
            queue.isClosed = true
            return true
        }
    }

    /// Whether the scope's completions have run: nothing queued now would run.
    var isClosed: Bool {
        queue.withLock(\.isClosed)
    }

    /// Closes the scope: nothing queued will run.
    ///
    /// - Returns: What was queued, for the caller to let go once it holds no lock (a completion
    ///   holds its instance, whose `deinit` may run user code).
    func close() -> [Completion] {
        queue.withLock { queue in
            queue.isClosed = true
            defer { queue.completions = [] }
            return queue.completions
        }
    }

    /// Runs the queued completions, including those that the resolves they make queue here.
    func drain(in state: AsyncResolveState) async throws(ResolutionError) {
        var runs = 0
        while let next = queue.withLock({ $0.completions.isEmpty ? nil : $0.completions.removeFirst() }) {
            runs += 1
            guard runs <= ResolutionContext.completionLimit else {
                throw ResolutionError.tooManyCompletions(next.registration, path: [next.registration.step])
            }
            let frame = AsyncFrame(next.registration, argumentHash: nil, outer: nil)
            let resolution = AsyncResolution(state: state, scope: self, frame: frame, container: next.container)
            try await resolution.run(next)
        }
    }

}
