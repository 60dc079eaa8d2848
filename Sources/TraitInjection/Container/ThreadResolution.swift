#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Each thread's idle ``Resolution``, kept in thread-local storage between top-level resolves.
///
/// A resolve runs synchronously on one thread, so taking the idle resolution out of the slot
/// while it is in use makes it exclusive to that resolve; a nested top-level resolve finds the
/// slot empty and makes its own.
enum ThreadResolution {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(result == 0, "pthread_key_create failed: \(result)")
        return key
    }()

    /// Takes this thread's idle resolution (a +1 reference), leaving the slot empty.
    static func take() -> UnsafeMutableRawPointer? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        pthread_setspecific(key, nil)
        return pointer
    }

    /// Stores `pointer` (a +1 reference) as this thread's idle resolution, or drops it with
    /// `release` if the slot is taken.
    static func offer(_ pointer: UnsafeMutableRawPointer, release: (UnsafeMutableRawPointer) -> Void) {
        guard pthread_getspecific(key) == nil else {
            release(pointer)
            return
        }
        pthread_setspecific(key, pointer)
    }
}
