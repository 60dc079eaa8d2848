#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    #error("TraitInjection supports Darwin, Glibc and Musl platforms.")
#endif

/// Who is creating a kept instance: one outermost resolve on one thread.
///
/// `resolve` is the identity of the thread's outermost ``ResolutionContext`` and `generation` the
/// activation of that context, which is never repeated: an owner that has finished never matches
/// a later one.
@usableFromInline
struct CreationOwner: Hashable, Sendable {
    @usableFromInline let resolve: ObjectIdentifier
    @usableFromInline let generation: UInt64

    @usableFromInline
    init(resolve: ObjectIdentifier, generation: UInt64) {
        self.resolve = resolve
        self.generation = generation
    }
}

/// A cell that one resolve at a time creates an instance for, seen by the waits between threads.
protocol CreationCell: AnyObject, Sendable {
    /// The owner creating the instance right now, if any (takes the cell's lock).
    var creator: CreationOwner? { get }
    /// Whether `owner` is creating the instance now; if so, the cell wakes the waiters when that
    /// ends (takes the cell's lock).
    func markWaiting(ifCreatedBy owner: CreationOwner) -> Bool
    /// The service, for errors: `Database (App.swift:12)`.
    var serviceDescription: String { get }
}

/// The waits of threads for kept instances that other threads are creating, and the one
/// condition they sleep on.
///
/// A thread that finds a `.container` or `.weak` instance being created by another thread's
/// resolve sleeps until that resolve publishes or abandons it. Before it sleeps, it records which
/// owner it waits for and follows the chain of recorded waits: if the chain comes back to its own
/// resolve, the threads wait for each other and none would ever wake, so it throws instead.
///
/// Waits are rare (only while a kept instance is first created), so one lock and one condition
/// serve the whole process; a cell that had waiters wakes them all when it changes
/// (``wakeWaiters()``), and each checks its own cell again.
///
/// Lock order: this lock, then a cell's lock (a cell never takes this one while holding its own).
/// No user code runs under either.
enum CreationWaits {
    /// A recorded wait: the resolve `waiter` sleeps until `cell` (being created by `owner`) changes.
    struct Wait {
        let waiterGeneration: UInt64
        /// Not retained: the waiting resolve keeps the registration, and so the cell, alive until
        /// it removes this wait.
        unowned(unsafe) let cell: any CreationCell
        let owner: CreationOwner
    }

    /// The lock, the condition, and the recorded waits.
    private static let monitor = Monitor()

    /// What a cell answers a resolve that wants its instance.
    enum Answer<Result> {
        /// Done: the instance, or the right to create it.
        case ready(Result)
        /// Another resolve is creating it.
        case busy(CreationOwner)
    }

    /// Asks `cell` (through `ask`, which takes the cell's lock and, when busy, marks the cell as
    /// having waiters) until it is ready, sleeping while another thread's resolve creates it.
    ///
    /// - Throws: The services of a deadlock: the one this thread waits for first, then the
    ///   services along the chain of waits back to one that this thread is creating.
    static func wait<Result>(
        for cell: any CreationCell,
        by waiter: CreationOwner,
        _ ask: () -> Answer<Result>
    ) throws(Deadlock) -> Result {
        monitor.lock()
        defer {
            monitor.waits[waiter.resolve] = nil
            monitor.unlock()
        }
        while true {
            let owner: CreationOwner
            switch ask() {
            case .ready(let result): return result
            case .busy(let busyOwner): owner = busyOwner
            }
            if let cycle = chain(from: owner, to: waiter, first: cell) { throw cycle }
            monitor.waits[waiter.resolve] = Wait(waiterGeneration: waiter.generation, cell: cell, owner: owner)
            monitor.wait()
        }
    }

    /// Wakes every waiting thread: a cell that had waiters was published, abandoned or reset.
    static func wakeWaiters() {
        monitor.lock()
        monitor.broadcast()
        monitor.unlock()
    }

    /// The deadlock, if following the recorded waits from `owner` leads back to `waiter`.
    /// Call with the monitor locked.
    private static func chain(from owner: CreationOwner, to waiter: CreationOwner, first: any CreationCell)
        -> Deadlock?
    {
        var services = [first.serviceDescription]
        var held = ObjectIdentifier(first)
        var current = owner
        // Each step moves to another waiting resolve: at most one step per recorded wait.
        for _ in 0...monitor.waits.count {
            if current == waiter {
                return Deadlock(services: services, held: held, waitedFor: first, waitedForOwner: owner)
            }
            guard let next = monitor.waits[current.resolve], next.waiterGeneration == current.generation,
                next.cell.creator == next.owner
            else { return nil }
            services.append(next.cell.serviceDescription)
            held = ObjectIdentifier(next.cell)
            current = next.owner
        }
        return nil
    }

    /// Threads that wait for each other's kept instances: `services[0]` is what this thread waits
    /// for, and each next one is what the thread creating the previous one waits for; this thread
    /// is creating the last.
    struct Deadlock: Error {
        let services: [String]
        /// The cell of the last service, which this thread is creating.
        let held: ObjectIdentifier
        /// The cell of the first service, and the owner creating it.
        let waitedFor: any CreationCell
        let waitedForOwner: CreationOwner
    }

    /// Sleeps until `owner` no longer creates the instance of `cell` (it published or abandoned
    /// it), for a resolve that holds no claim of its own.
    static func waitUntilDone(_ cell: any CreationCell, by owner: CreationOwner) {
        monitor.lock()
        defer { monitor.unlock() }
        while cell.markWaiting(ifCreatedBy: owner) {
            monitor.wait()
        }
    }
}

/// A mutex, a condition variable (`pthread`) and the waits they guard, for ``CreationWaits``.
///
/// `@unchecked Sendable`: the primitives live at stable addresses allocated here and are only
/// used through the pthread calls, which synchronise; `waits` is only touched with the mutex
/// locked.
private final class Monitor: @unchecked Sendable {
    /// The recorded waits, keyed by the waiting resolve.
    var waits: [ObjectIdentifier: CreationWaits.Wait] = [:]
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }
}
