#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    #error("TraitInjection supports Darwin, Glibc and Musl platforms.")
#endif

/// What happens to a thread's value of a thread-local key when the thread exits.
enum ThreadExitAction {
    /// Nothing: the value is a plain number.
    case none
    /// The value is a thread's ``ResolutionContext``: it goes back to the pool.
    case recycleResolutionContext
}

/// Creates a key for thread-local values (`pthread_getspecific`).
func makeThreadLocalKey(onExit action: ThreadExitAction) -> pthread_key_t {
    var key = pthread_key_t()
    let result: Int32
    switch action {
    case .none:
        result = pthread_key_create(&key, nil)
    case .recycleResolutionContext:
        result = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                ResolutionContext.recycle(pointer)
            #else
                if let pointer { ResolutionContext.recycle(pointer) }
            #endif
        }
    }
    // Keys run out only in a process that creates them in a loop, which this library never does.
    precondition(result == 0, "pthread_key_create failed: \(result)")
    return key
}
