// Public imports: the lock primitive's type appears in `@usableFromInline` declarations, which
// the inlinable trait accessors reach. Clients do not see these modules' members unless they
// import them themselves.
#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#else
    #error("TraitInjection supports Darwin, Glibc and Musl platforms.")
#endif

#if canImport(Darwin)
    @usableFromInline typealias LockPrimitive = os_unfair_lock
#else
    @usableFromInline typealias LockPrimitive = pthread_mutex_t
#endif

/// A value guarded by a lock, for state whose contents need not be `Sendable`.
///
/// `Synchronization.Mutex` insists that what a critical section returns is `sending`, which a
/// store of arbitrary generic values cannot promise; and on Linux its lock operations live out of
/// ThreadSanitizer's sight. `Locked` uses the platform lock (`os_unfair_lock` on Darwin,
/// `pthread_mutex_t` elsewhere), which the sanitizer understands, allocated with the state in one
/// block at a stable address.
///
/// `@unchecked Sendable` is sound because the state is only ever reached through
/// ``withLock(_:)``, which holds the lock for the whole access, and no pointer to it escapes.
/// Callers must not run user code (factories, callbacks, deinitialisers of values they drop)
/// inside `body`: move such values out and let them go after `withLock` returns.
@usableFromInline
final class Locked<State>: @unchecked Sendable {
    @usableFromInline
    struct Storage {
        @usableFromInline var primitive: LockPrimitive
        @usableFromInline var state: State
    }

    @usableFromInline
    let storage: UnsafeMutablePointer<Storage>

    @usableFromInline
    var primitive: UnsafeMutablePointer<LockPrimitive> {
        (UnsafeMutableRawPointer(storage) + MemoryLayout<Storage>.offset(of: \.primitive)!)
            .assumingMemoryBound(to: LockPrimitive.self)
    }

    private init(_ initialState: State, ownCacheLines: Bool) {
        if ownCacheLines {
            // Rounded up to whole cache lines (and one more, for the adjacent-line prefetcher), so
            // that no other allocation shares a line with the lock word.
            let line = 64
            let size = (MemoryLayout<Storage>.size + line - 1) / line * line + line
            storage = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: line)
                .bindMemory(to: Storage.self, capacity: 1)
        } else {
            storage = .allocate(capacity: 1)
        }
        storage.initialize(to: Storage(primitive: LockPrimitive(), state: initialState))
        Self.initialize(primitive)
    }

    /// Creates a lock guarding `initialState`.
    ///
    /// - Parameter ownCacheLines: Whether to give the lock cache lines of its own, for a lock that
    ///   threads take often at the same time as locks allocated next to it: otherwise taking one
    ///   slows down taking the other (false sharing).
    @usableFromInline
    static func make(_ initialState: State, ownCacheLines: Bool = false) -> Locked<State> {
        Locked(initialState, ownCacheLines: ownCacheLines)
    }

    deinit {
        Self.destroy(primitive)
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    @inlinable
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        let primitive = self.primitive
        Self.lock(primitive)
        defer { Self.unlock(primitive) }
        return try body(&storage.pointee.state)
    }

    @usableFromInline
    static func initialize(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
        #if !canImport(Darwin)
            let result = pthread_mutex_init(primitive, nil)
            precondition(result == 0, "pthread_mutex_init failed: \(result)")
        #endif
    }

    @usableFromInline
    static func destroy(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
        #if !canImport(Darwin)
            pthread_mutex_destroy(primitive)
        #endif
    }

    @inlinable
    static func lock(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
        #else
            let result = pthread_mutex_lock(primitive)
            precondition(result == 0, "pthread_mutex_lock failed: \(result)")
        #endif
    }

    @inlinable
    static func unlock(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
        #else
            let result = pthread_mutex_unlock(primitive)
            precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
        #endif
    }
}
