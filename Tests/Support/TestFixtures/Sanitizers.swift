#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("These tests run on Darwin and Glibc platforms.")
#endif

/// Whether the tests run under AddressSanitizer (`swift test --sanitize=address`).
package let isAddressSanitized = dlsym(dlopen(nil, RTLD_NOW), "__asan_init") != nil
