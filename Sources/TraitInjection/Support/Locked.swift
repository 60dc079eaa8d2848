/// A value guarded by the platform's mutex, in one allocation with it.
///
/// `Synchronization.Mutex` would be the plain choice, but it wants a `sending` result from its
/// critical section, which a store of arbitrary generic values cannot promise, and on Linux its
/// lock operations are invisible to ThreadSanitizer, which CI runs the whole suite under.
///
/// `@unchecked Sendable`: the state is only reached inside ``withLock(_:)``, which holds the lock
/// for the whole access, and no pointer to it escapes. Never run user code in `body` (a factory,
/// a closure of the app's, the `deinit` of a value let go): move such values out and let them go
/// after `withLock` returns.
struct Locked<State>: @unchecked Sendable {
    /// The state and the lock word, at a fixed address. (`ManagedBuffer` subclasses cannot be
    /// `Sendable`: this struct is the one that declares it.)
    private final class Buffer: ManagedBuffer<State, LockPrimitive> {
        deinit {
            withUnsafeMutablePointerToElements { Platform.destroy($0) }
        }
    }

    private let buffer: Buffer

    /// A lock guarding `state`.
    ///
    /// - Parameter padded: Whether to pad the allocation so that no other lock shares its cache
    ///   line: for locks that different threads take at the same time as their neighbours'
    ///   (false sharing would make them contend).
    init(_ state: State, padded: Bool = false) {
        // The extra elements are unused room: 4 of `pthread_mutex_t` take 160 bytes.
        buffer = unsafeDowncast(Buffer.create(minimumCapacity: padded ? 4 : 1) { _ in state }, to: Buffer.self)
        buffer.withUnsafeMutablePointerToElements { Platform.initialize($0) }
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try buffer.withUnsafeMutablePointers { (state, lock) throws(Failure) -> Result in
            Platform.lock(lock)
            defer { Platform.unlock(lock) }
            return try body(&state.pointee)
        }
    }
}

/// A value that is `Sendable` by an invariant its user states where it is made.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
