#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("These tests run on Darwin and Glibc platforms.")
#endif

/// Whether the tests run under AddressSanitizer (`swift test --sanitize=address`).
package let isAddressSanitized = dlsym(dlopen(nil, RTLD_NOW), "__asan_init") != nil

/// Whether the tests run under ThreadSanitizer (`swift test --sanitize=thread`), where each
/// allocation records the whole call stack: deep chains cost the square of their depth there.
package let isThreadSanitized = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

/// The calling thread's identifier.
package var currentThreadID: UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
