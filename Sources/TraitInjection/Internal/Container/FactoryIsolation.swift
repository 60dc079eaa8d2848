import Dispatch

/// Where a registration's factory may run, fixed when it is registered.
@usableFromInline
enum FactoryIsolation: UInt8, Sendable {
    /// A synchronous factory: it runs wherever the resolve runs.
    case none
    /// A factory that awaits: only an async resolve (`resolveAsync`, an ``AsyncResolution``) runs it.
    case async
    /// A synchronous factory isolated to the main actor: a synchronous resolve runs it only on
    /// the main actor; an async resolve hops there.
    case mainActor
}

/// Whether the caller runs on the main actor, asked without stopping the program when it does
/// not (`MainActor.assumeIsolated` traps, and Swift has no public check that does not).
///
/// The main actor's executor is the main dispatch queue, on Apple platforms and on Linux alike,
/// and the main thread counts as running it before the queue is serviced. The queue carries a
/// marker set on first use; `DispatchQueue.getSpecific` finds it exactly when the caller runs on
/// the main queue — which is what `MainActor.assumeIsolated` then checks. (On Linux the main actor
/// does not always run on the main thread, so a thread check would be wrong.)
@usableFromInline
enum MainQueue {
    private static let marker: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller runs on the main queue, and so on the main actor.
    @usableFromInline
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker) != nil
    }
}
