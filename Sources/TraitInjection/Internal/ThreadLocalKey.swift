#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Creates a key for thread-local values (`pthread_getspecific`).
///
/// - Parameter releasingObjects: Whether a thread's value is a retained object reference
///   (`Unmanaged.passRetained(…).toOpaque()`) to release when the thread exits; otherwise the
///   value is a plain number and nothing is done.
func makeThreadLocalKey(releasingObjects: Bool) -> pthread_key_t {
    var key = pthread_key_t()
    let result =
        releasingObjects
        ? pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
        : pthread_key_create(&key, nil)
    // Keys run out only in a process that creates them in a loop, which this library never does.
    precondition(result == 0, "pthread_key_create failed: \(result)")
    return key
}
