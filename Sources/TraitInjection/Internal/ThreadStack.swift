#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    #error("TraitInjection supports Darwin, Glibc and Musl platforms.")
#endif

/// The bounds of a thread's stack, for telling when a chain of resolves is about to run out of it.
///
/// All zero when the platform does not say: then the stack is never low.
@usableFromInline
struct ThreadStack {
    /// The lowest address of the stack.
    @usableFromInline var base: UInt = 0
    /// Below this address, a factory runs on a helper thread's larger stack.
    @usableFromInline var limit: UInt = 0
    /// The address just past the stack's highest byte.
    @usableFromInline var top: UInt = 0

    /// The room left below `limit`: 128 KiB, or half the stack if that is less. A level of
    /// resolution takes about 1 KiB in a release build and a few KiB in a debug build, more under
    /// AddressSanitizer, whose guard zones enlarge frames. A small stack (musl's 128 KiB) still
    /// runs shallow resolves itself.
    static var margin: UInt { 128 * 1024 }

    /// The current thread's stack.
    static func current() -> ThreadStack {
        #if canImport(Darwin)
            let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
            let size = UInt(pthread_get_stacksize_np(pthread_self()))
            return ThreadStack(base: top - size, size: size)
        #else
            // `pthread_getattr_np` is a GNU extension the Glibc module does not declare.
            typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            guard let symbol = dlsym(defaultSymbolHandle, "pthread_getattr_np") else { return ThreadStack() }
            let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
            var attributes = pthread_attr_t()
            guard getAttributes(pthread_self(), &attributes) == 0 else { return ThreadStack() }
            defer { pthread_attr_destroy(&attributes) }
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return ThreadStack() }
            return ThreadStack(base: UInt(bitPattern: address), size: UInt(size))
        #endif
    }

    init() {}

    private init(base: UInt, size: UInt) {
        self.base = base
        self.limit = base + min(Self.margin, size / 2)
        self.top = base + size
    }

    /// Whether the current frame is below `limit`, so that the thread's stack is nearly used up.
    @inlinable @inline(__always)
    var isLow: Bool {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { marker in
            var address = UInt(bitPattern: marker)
            if address < base || address >= top, top != 0 {
                // A local kept elsewhere: AddressSanitizer's fake stack. Looked up while the
                // frame holding `marker` is still live.
                address = Self.realAddress(of: address)
            }
            return address >= base && address < limit
        }
    }

    /// The address on the real stack of the frame that `address`, in AddressSanitizer's fake
    /// stack, belongs to; `address` itself when that sanitizer is not there.
    @usableFromInline
    static func realAddress(of address: UInt) -> UInt {
        guard let sanitizer = FakeStack.functions,
            let fakeStack = sanitizer.current(),
            let real = sanitizer.realFrame(fakeStack, UnsafeMutableRawPointer(bitPattern: address), nil, nil)
        else { return address }
        return UInt(bitPattern: real)
    }

    /// AddressSanitizer's functions that map a frame on its fake stack to the real one, if the
    /// process runs under it.
    private enum FakeStack {
        typealias Current = @convention(c) () -> UnsafeMutableRawPointer?
        typealias RealFrame =
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                UnsafeMutablePointer<UnsafeMutableRawPointer?>?
            ) -> UnsafeMutableRawPointer?

        static let functions: (current: Current, realFrame: RealFrame)? = {
            guard let current = dlsym(defaultSymbolHandle, "__asan_get_current_fake_stack"),
                let realFrame = dlsym(defaultSymbolHandle, "__asan_addr_is_in_fake_stack")
            else { return nil }
            return (unsafeBitCast(current, to: Current.self), unsafeBitCast(realFrame, to: RealFrame.self))
        }()
    }
}

/// `RTLD_DEFAULT`: look a symbol up in every loaded image.
var defaultSymbolHandle: UnsafeMutableRawPointer? {
    #if canImport(Darwin)
        UnsafeMutableRawPointer(bitPattern: -2)
    #else
        UnsafeMutableRawPointer(bitPattern: 0)
    #endif
}
