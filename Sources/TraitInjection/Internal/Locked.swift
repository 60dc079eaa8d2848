import Synchronization

/// A value guarded by a mutex, for state whose contents need not be `Sendable`.
///
/// `Synchronization.Mutex` insists that what a critical section returns is `sending`, which a
/// store of arbitrary generic values cannot promise. `Locked` keeps the state behind a pointer it
/// owns and only ever touches it inside `withLock`, with the mutex held.
///
/// `@unchecked Sendable` is sound because every access to `state` goes through `withLock`, which
/// holds `mutex` for the whole of the access, and the pointer itself never escapes this class.
/// Callers must not run user code (factories, callbacks, deinitialisers of values they drop)
/// inside `body`: move such values out and let them go after `withLock` returns.
final class Locked<State>: @unchecked Sendable {
    private let mutex = Mutex<Void>(())
    private let state: UnsafeMutablePointer<State>

    init(_ initialState: State) {
        state = .allocate(capacity: 1)
        state.initialize(to: initialState)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    @inline(__always)
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        var result: Result?
        mutex.withLock { _ in
            result = body(&state.pointee)
        }
        // `result` was assigned above: `withLock` runs its body exactly once.
        return result.unsafelyUnwrapped
    }
}
