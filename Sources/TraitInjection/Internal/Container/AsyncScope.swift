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

    private let completions = Locked.make([Completion]())

    init() {}

    /// Queues `completion` until the resolve of this scope has returned.
    func enqueue(_ completion: Completion) {
        completions.withLock { $0.append(completion) }
    }

    var isEmpty: Bool {
        completions.withLock(\.isEmpty)
    }

    /// Runs the queued completions, including those that the resolves they make queue here.
    func drain(in state: AsyncResolveState) async throws(ResolutionError) {
        var runs = 0
        while let next = completions.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
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
            let resolution = AsyncResolution(state: state, scope: self, frame: frame, container: next.container)
            try await resolution.run(next)
        }
    }

    /// Lets what is queued go, outside the lock.
    func drop() {
        let dropped = completions.withLock { queued in
            defer { queued = [] }
            return queued
        }
        withExtendedLifetime(dropped) {}
    }
}
