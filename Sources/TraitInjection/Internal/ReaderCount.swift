public import Synchronization

#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#endif

/// A count of the lock-free reads in flight of some published value, so that a writer that has
/// replaced the value can wait until no read that may have loaded the old one is still running.
///
/// The count is split into stripes, each on cache lines of its own, and each thread counts its
/// reads in its own stripe (threads are handed stripes in turn). So threads reading at the same
/// time write to different cache lines and do not slow each other down, as they would if they
/// all counted in one word.
///
/// `@unchecked Sendable`: the stripes are atomics, reached only through this type's methods; the
/// memory holding them is allocated in `init` and freed in `deinit`, when no reader can remain.
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
    private static let threadStripeKey = makeThreadLocalKey(releasingObjects: false)

    /// The stripe the next thread to read gets.
    private static let nextStripe = Atomic<Int>(0)

    @usableFromInline
    let stripes: UnsafeMutableRawPointer
    /// `threadStripeKey`, copied so that a read does not go through a lazily initialised global.
    @usableFromInline
    let threadStripeKey: pthread_key_t

    init() {
        stripes = .allocate(byteCount: Self.stripeCount * Self.stripeStride, alignment: Self.stripeStride)
        for stripe in 0..<Self.stripeCount {
            (stripes + stripe * Self.stripeStride).bindMemory(to: Atomic<Int>.self, capacity: 1)
                .initialize(to: Atomic(0))
        }
        threadStripeKey = Self.threadStripeKey
    }

    deinit {
        for stripe in 0..<Self.stripeCount {
            counter(stripe).deinitialize(count: 1)
        }
        stripes.deallocate()
    }

    @inlinable
    func counter(_ stripe: Int) -> UnsafeMutablePointer<Atomic<Int>> {
        (stripes + stripe * Self.stripeStride).assumingMemoryBound(to: Atomic<Int>.self)
    }

    /// Counts a read as started, and returns the stripe to hand to ``leave(_:)`` when it ends.
    ///
    /// Sequentially consistent, like the writer's replacement of the value and its look at the
    /// count: a writer that sees no read in flight is ordered before any read counted later,
    /// which therefore loads the new value.
    @inlinable
    func enter() -> Int {
        let stripe: Int
        if let assigned = pthread_getspecific(threadStripeKey) {
            stripe = Int(bitPattern: UInt(bitPattern: assigned)) &- 1
        } else {
            stripe = Self.assignStripe(threadStripeKey)
        }
        counter(stripe).pointee.wrappingAdd(1, ordering: .sequentiallyConsistent)
        return stripe
    }

    /// Counts the read that ``enter()`` started as ended.
    @inlinable
    func leave(_ stripe: Int) {
        counter(stripe).pointee.wrappingSubtract(1, ordering: .releasing)
    }

    /// Waits until every read counted before the call has ended. Reads never block, so the wait is
    /// short, but it spins: call it only after making new reads unnecessary (by replacing the
    /// value they would load), and never while a read on this thread is in flight.
    func waitForReaders() {
        for stripe in 0..<Self.stripeCount {
            while counter(stripe).pointee.load(ordering: .sequentiallyConsistent) != 0 {
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
