#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("These tests run on Darwin and Glibc platforms.")
#endif

/// Whether the tests run under AddressSanitizer (`swift test --sanitize=address`).
let isAddressSanitized: Bool = {
    #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)
    #else
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)
    #endif
    return dlsym(everywhere, "__asan_init") != nil
}()
