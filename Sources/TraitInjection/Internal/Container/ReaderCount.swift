public import Synchronization

#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#else
    #error("TraitInjection supports Darwin, Glibc and Musl platforms.")
#endif

/// A count of the lock-free reads in flight of some published value, so that a writer that has
/// replaced the value can wait until no read that may have loaded the old one is still running.
///
/// The count is split into stripes, each on cache lines of its own, and each thread counts its
/// reads in its own stripe (threads are handed stripes in turn). So threads reading at the same
/// time write to different cache lines and do not slow each other down, as they would if they
/// all counted in one word. The stripes (1 KiB) are allocated by ``prepare()``, before the first
/// value is published, so that a count that never sees a value costs one word.
///
/// `@unchecked Sendable`: the stripes are atomics, reached only through this type's methods; the
/// memory holding them is published once, atomically, and freed in `deinit`, when no reader can
/// remain.
@usableFromInline
struct ReaderCount: ~Copyable, @unchecked Sendable {
    /// How many stripes a count has: a power of two.
    @usableFromInline
    static var stripeCount: Int { 8 }

    /// The bytes between two stripes: two cache lines, so that the adjacent-line prefetcher of
    /// one thread's stripe never pulls in another's.
    @usableFromInline
    static var stripeStride: Int { 128 }

    /// Which stripe each thread counts in, plus one (0: none yet), in thread-local storage.
    private static let threadStripeKey = makeThreadLocalKey(onExit: .none)

    /// The stripe the next thread to read gets.
    private static let nextStripe = Atomic<Int>(0)

    /// The address of the stripes, or 0 before ``prepare()``.
    @usableFromInline
    let stripes = Atomic<UInt>(0)
    /// `threadStripeKey`, copied so that a read does not go through a lazily initialised global.
    @usableFromInline
    let threadStripeKey: pthread_key_t

    init() {
        threadStripeKey = Self.threadStripeKey
    }

    deinit {
        guard let stripes = UnsafeMutableRawPointer(bitPattern: stripes.load(ordering: .acquiring)) else { return }
        for stripe in 0..<Self.stripeCount {
            Self.counter(stripe, in: stripes).deinitialize(count: 1)
        }
        stripes.deallocate()
    }

    /// Allocates the stripes, unless that is done: call before the value is first published,
    /// under the writer's lock.
    func prepare() {
        guard stripes.load(ordering: .acquiring) == 0 else { return }
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: Self.stripeCount * Self.stripeStride,
            alignment: Self.stripeStride
        )
        for stripe in 0..<Self.stripeCount {
            (memory + stripe * Self.stripeStride).bindMemory(to: Atomic<Int>.self, capacity: 1)
                .initialize(to: Atomic(0))
        }
        stripes.store(UInt(bitPattern: memory), ordering: .releasing)
    }

    @inlinable
    static func counter(_ stripe: Int, in stripes: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<Int>> {
        (stripes + stripe * stripeStride).assumingMemoryBound(to: Atomic<Int>.self)
    }

    /// Counts a read as started, and returns the counter to hand to ``leave(_:)`` when it ends;
    /// `nil` if ``prepare()`` has not run, when there is no value to read yet.
    ///
    /// Sequentially consistent, like the writer's replacement of the value and its look at the
    /// count: a writer that sees no read in flight is ordered before any read counted later,
    /// which therefore loads the new value.
    @inlinable
    func enter() -> UnsafeMutablePointer<Atomic<Int>>? {
        guard let stripes = UnsafeMutableRawPointer(bitPattern: stripes.load(ordering: .acquiring)) else {
            return nil
        }
        let stripe: Int
        if let assigned = pthread_getspecific(threadStripeKey) {
            stripe = Int(bitPattern: UInt(bitPattern: assigned)) &- 1
        } else {
            stripe = Self.assignStripe(threadStripeKey)
        }
        let counter = Self.counter(stripe, in: stripes)
        counter.pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
        return counter
    }

    /// Counts the read that ``enter()`` started as ended.
    @inlinable
    func leave(_ counter: UnsafeMutablePointer<Atomic<Int>>) {
        counter.pointee.wrappingSubtract(1, ordering: .releasing)
    }

    /// Waits until every read counted before the call has ended. Reads never block, so the wait is
    /// short, but it spins: call it only after making new reads unnecessary (by replacing the
    /// value they would load), and never while a read on this thread is in flight.
    func waitForReaders() {
        guard let stripes = UnsafeMutableRawPointer(bitPattern: stripes.load(ordering: .acquiring)) else { return }
        for stripe in 0..<Self.stripeCount {
            while Self.counter(stripe, in: stripes).pointee.load(ordering: .sequentiallyConsistent) != 0 {
                sched_yield()
            }
        }
    }

    /// Hands this thread the next stripe, and returns it.
    @usableFromInline
    static func assignStripe(_ key: pthread_key_t) -> Int {
        let stripe = nextStripe.wrappingAdd(1, ordering: .relaxed).oldValue & (stripeCount - 1)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: UInt(stripe + 1)))
        return stripe
    }
}
