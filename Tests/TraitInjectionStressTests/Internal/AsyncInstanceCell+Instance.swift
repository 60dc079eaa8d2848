@testable import TraitInjection

// The whole protocol of an `AsyncInstanceCell` for one resolve with nothing else to wait for, as
// the tests of the cell drive it. (The container's async resolve runs the same steps itself,
// with its path, its waits between tasks and its deferred publication:
// `AsyncResolution+Resolve.swift`.)

extension AsyncInstanceCell {
    /// A resolve asked again, while making it, for an instance it is making: a cycle.
    struct OwnCreation: Error {}

    /// The kept instance, or a new one from `make` if none is kept, made by one task at a time and
    /// published as soon as `make` returns: the whole protocol for a resolve with nothing else to
    /// wait for.
    ///
    /// A creation the creator gives up because it was cancelled, or because `make` threw
    /// `CancellationError` (a cancellation of its own work), is not its waiters' failure: they
    /// claim again. A task that had not started waiting when a creation failed claims again too.
    ///
    /// - Throws: `make`'s error, the error of the creation this task waited for,
    ///   `OwnCreation` if `make` asks for the instance it is making, or `CancellationError` if
    ///   this task was cancelled while it waited.
    func instance(by owner: UInt64, make: @Sendable () async throws -> Service) async throws -> Service {
        while true {
            switch claim(by: owner) {
            case .kept(let kept):
                return kept
            case .create:
                do {
                    let service = try await make()
                    publish(service)
                    return service
                } catch {
                    abandon(error, retry: Task.isCancelled || error is CancellationError)
                    throw error
                }
            case .busy(let creator):
                if let published = try await waitForCreation(of: creator) { return published }
            // That creation was given up or is over: claim again.
            case .ownCreation:
                throw OwnCreation()
            }
        }
    }
}
