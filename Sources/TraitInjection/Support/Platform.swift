// The one place that talks to the operating system: locks, a condition, thread identity, a
// thread-local reference, stack bounds, helper threads, the environment and standard error.
// Every other file reaches the platform through `Platform` and the types here.
//
// Public imports: the lock word's type appears in `@usableFromInline` declarations that the
// inlinable trait accessors reach. Clients do not see these modules' members unless they import
// them themselves.

#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#else
    #error("TraitInjection supports Darwin, Glibc and Musl platforms.")
#endif

/// The platform's plain mutex: `pthread_mutex_t`, which ThreadSanitizer understands (on Linux
/// `Synchronization.Mutex` is invisible to it), or `os_unfair_lock` on Darwin.
#if canImport(Darwin)
    @usableFromInline typealias LockPrimitive = os_unfair_lock
#else
    @usableFromInline typealias LockPrimitive = pthread_mutex_t
#endif

@usableFromInline
enum Platform {
    @usableFromInline
    static func initialize(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
        #else
            lock.initialize(to: pthread_mutex_t())
            precondition(pthread_mutex_init(lock, nil) == 0, "pthread_mutex_init failed")
        #endif
    }

    @usableFromInline
    static func destroy(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
    }

    @inlinable
    static func lock(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
        #else
            pthread_mutex_lock(lock)
        #endif
    }

    @inlinable
    static func unlock(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
            os_unfair_lock_unlock(lock)
        #else
            pthread_mutex_unlock(lock)
        #endif
    }

    /// The calling thread, as a number no other live thread has.
    @inlinable
    static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Lets another thread run before this one goes on.
    static func yieldThread() {
        sched_yield()
    }

    /// The value of environment variable `name`, if set.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Writes `text` to standard error, unbuffered.
    static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// The lowest and the highest address of the calling thread's stack, if the platform says.
    static func stackBounds() -> (low: UInt, high: UInt)? {
        #if canImport(Darwin)
            let high = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
            return (high - UInt(pthread_get_stacksize_np(pthread_self())), high)
        #else
            // `pthread_getattr_np` is a GNU extension the Glibc module does not declare.
            typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
            var attributes = pthread_attr_t()
            guard unsafeBitCast(symbol, to: GetAttributes.self)(pthread_self(), &attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(&attributes) }
            var low: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &low, &size) == 0, let low else { return nil }
            return (UInt(bitPattern: low), UInt(bitPattern: low) + UInt(size))
        #endif
    }

    /// The address of a frame of the caller's: under AddressSanitizer, whose fake stack keeps
    /// locals on the heap, the address of the real frame it stands for.
    @inline(never)
    static func currentFrameAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { marker in
            let address = UInt(bitPattern: marker)
            guard let fakeStack = FakeStack.functions, let stack = fakeStack.current(),
                let real = fakeStack.realFrame(stack, OpaquePointer(bitPattern: address), nil, nil)
            else { return address }
            return UInt(bitPattern: real)
        }
    }

    /// AddressSanitizer's functions that map a frame of its fake stack to the real one (their
    /// pointers are addresses only, passed through).
    private enum FakeStack {
        typealias Current = @convention(c) () -> OpaquePointer?
        typealias RealFrame =
            @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> OpaquePointer?

        static let functions: (current: Current, realFrame: RealFrame)? = {
            let image = dlopen(nil, RTLD_NOW)
            guard let current = dlsym(image, "__asan_get_current_fake_stack"),
                let realFrame = dlsym(image, "__asan_addr_is_in_fake_stack")
            else { return nil }
            return (unsafeBitCast(current, to: Current.self), unsafeBitCast(realFrame, to: RealFrame.self))
        }()
    }

    /// Runs `work` on a new thread with a stack of `stackSize` bytes, runs `whileWaiting` on this
    /// one meanwhile, and waits for the new thread to end.
    ///
    /// - Returns: Whether it ran: `false` if the system grants no such thread.
    ///
    /// `work` need not be `Sendable`: what it shares with this thread, `whileWaiting` only touches
    /// under a lock of its own, and creating and joining a thread order their memory accesses.
    static func runOnNewThread(stackSize: Int, _ work: () -> Void, whileWaiting: () -> Void = {}) -> Bool {
        withoutActuallyEscaping(work) { work in
            final class Work {
                let run: () -> Void
                init(_ run: @escaping () -> Void) { self.run = run }
            }
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, stackSize)
            let box = Unmanaged.passRetained(Work(work))
            func run(_ box: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
                Unmanaged<Work>.fromOpaque(box!).takeRetainedValue().run()
                return nil
            }
            #if canImport(Darwin)
                var thread: pthread_t?
                let start: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = { run($0) }
            #else
                var thread = pthread_t()
                let start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { run($0) }
            #endif
            guard pthread_create(&thread, &attributes, start, box.toOpaque()) == 0 else {
                box.release()
                return false
            }
            whileWaiting()
            #if canImport(Darwin)
                pthread_join(thread!, nil)
            #else
                pthread_join(thread, nil)
            #endif
            return true
        }
    }
}

/// A reference that is not retained, in a record that something else keeps the object alive
/// for: each record that holds one says what holds its object, and until when, and reads it only
/// then (``ResolveStack``'s borrowing rule).
@usableFromInline
struct Borrowed<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>

    init(_ object: Object) {
        reference = Unmanaged.passUnretained(object)
    }

    /// The object (which its user retains if it keeps it).
    var object: Object { reference.takeUnretainedValue() }

    /// Runs `body` with the object, which nothing retains meanwhile.
    @inlinable
    func with<Result, Failure: Error>(_ body: (Object) throws(Failure) -> Result) throws(Failure) -> Result {
        do {
            return try reference._withUnsafeGuaranteedRef { try body($0) }
        } catch {
            throw error as! Failure  // What `body` threw.
        }
    }
}

extension Borrowed: Sendable where Object: Sendable {}

/// A mutex and a condition variable, for threads that sleep until another thread changes what
/// the mutex guards.
final class Monitor: @unchecked Sendable {
    // `@unchecked Sendable`: the primitives are only used through the pthread calls, which
    // synchronise; they live in one allocation at a stable address.
    private let primitives = UnsafeMutablePointer<(pthread_mutex_t, pthread_cond_t)>.allocate(capacity: 1)

    init() {
        primitives.initialize(to: (pthread_mutex_t(), pthread_cond_t()))
        pthread_mutex_init(&primitives.pointee.0, nil)
        pthread_cond_init(&primitives.pointee.1, nil)
    }

    deinit {
        pthread_cond_destroy(&primitives.pointee.1)
        pthread_mutex_destroy(&primitives.pointee.0)
        primitives.deallocate()
    }

    func lock() { pthread_mutex_lock(&primitives.pointee.0) }
    func unlock() { pthread_mutex_unlock(&primitives.pointee.0) }
    /// Sleeps until ``broadcast()``; call with the mutex locked.
    func wait() { pthread_cond_wait(&primitives.pointee.1, &primitives.pointee.0) }
    func broadcast() { pthread_cond_broadcast(&primitives.pointee.1) }
}

/// A strong reference per thread (`pthread_getspecific`), released when its thread exits.
final class ThreadLocal<Value: AnyObject>: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        // The destructor lets go of a thread's value when the thread exits.
        #if canImport(Darwin)
            let result = pthread_key_create(&key) { ThreadLocal<AnyObject>.release($0) }
        #else
            let result = pthread_key_create(&key) { ThreadLocal<AnyObject>.release($0) }
        #endif
        precondition(result == 0, "pthread_key_create failed: \(result)")
        self.key = key
    }

    /// Runs `body` with the calling thread's value, borrowed (not retained): the thread holds it,
    /// and `body` runs on the thread. Without a value, runs `absent`.
    func withValue<Result, Failure: Error>(
        _ body: (Value) throws(Failure) -> Result,
        absent: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard let pointer = pthread_getspecific(key) else { return try absent() }
        do {
            return try Unmanaged<Value>.fromOpaque(pointer)._withUnsafeGuaranteedRef { try body($0) }
        } catch {
            throw error as! Failure  // What `body` threw.
        }
    }

    /// The calling thread's value.
    var value: Value? {
        get { withValue({ $0 }, absent: { nil }) }
        set {
            let old = pthread_getspecific(key)
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
            Self.release(old)
        }
    }

    private static func release(_ value: UnsafeMutableRawPointer?) {
        value.map { Unmanaged<AnyObject>.fromOpaque($0).release() }
    }
}
