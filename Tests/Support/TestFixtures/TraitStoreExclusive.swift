package import Testing

/// A suite trait that gives a suite the global trait store to itself: suites carrying it run one
/// after another, in whatever test target they are, while other suites run in parallel.
///
/// Trait tests assert on ``TraitInjection/Injectable/storedTraitCount``, which counts the traits of
/// every live instance in the process; a suite in another target creating instances at the same
/// time would change it under them.
///
/// ```swift
/// @Suite(.serialized, .traitStoreExclusive)
/// enum TraitTests {}
/// ```
package struct TraitStoreExclusive: SuiteTrait, TestScoping {
    package var isRecursive: Bool { false }

    package func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        await TraitStoreTurns.shared.acquire()
        do {
            try await function()
        } catch {
            await TraitStoreTurns.shared.release()
            throw error
        }
        await TraitStoreTurns.shared.release()
    }
}

extension Trait where Self == TraitStoreExclusive {
    /// The suite has the global trait store to itself while it runs.
    package static var traitStoreExclusive: Self { Self() }
}

/// Whose turn it is to use the trait store: a lock that waits without blocking a thread, handed
/// from one suite straight to the next in the order they asked.
actor TraitStoreTurns {
    static let shared = TraitStoreTurns()

    private var isTaken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard isTaken else {
            isTaken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            isTaken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
