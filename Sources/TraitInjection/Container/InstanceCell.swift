public import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The instance a `.container` or `.weak` registration keeps, created exactly once under
/// contention without holding a lock while the factory runs.
///
/// The first resolver marks the cell as being created and runs the factory with no lock held;
/// others wait (yielding, then sleeping briefly) until it publishes the instance, or until it
/// fails, in which case one of them tries again.
///
/// A strongly kept instance is also published in a ``Kept`` box behind an atomic address, which
/// a resolve reads without the lock. Each such read is counted in `readers` while it runs; a
/// reset clears the address, then waits (under the lock, which new readers then queue on) until
/// no read is in flight before it lets the box go, so that no read can retain an instance the
/// reset has already released. Threads count their reads on cache lines of their own, so threads
/// reading the same singleton contend only on its reference count.
@usableFromInline
final class InstanceCell<Service>: Sendable {
    @usableFromInline
    enum State {
        case empty
        case creating
        /// Kept strongly: the instance is in the ``Kept`` box at `keptAddress`.
        case strong
        case weak(WeakBox)
        /// The registration was replaced: resolves still in flight with it get new instances,
        /// and none is kept any more.
        case retired
    }

    @usableFromInline
    final class WeakBox {
        weak var object: AnyObject?

        init(_ object: AnyObject) { self.object = object }
    }

    /// What a resolver should do.
    @usableFromInline
    enum Claim {
        case instance(Service)
        case create
    }

    /// A strongly kept instance, in an immutable box whose address is published for lock-free
    /// reads.
    @usableFromInline
    final class Kept {
        @usableFromInline let instance: Service

        init(_ instance: Service) { self.instance = instance }
    }

    @usableFromInline
    let state = Locked.make(State.empty, ownCacheLines: true)

    /// The lock-free reads of `keptAddress` in flight.
    @usableFromInline
    let readers = ReaderCount()
    /// The address of the ``Kept`` box (retained by the cell) while the state is `.strong`, else 0.
    @usableFromInline
    let keptAddress = Atomic<UInt>(0)

    deinit {
        if let address = UnsafeRawPointer(bitPattern: keptAddress.load(ordering: .acquiring)) {
            Unmanaged<Kept>.fromOpaque(address).release()
        }
    }

    /// The cached instance, if there is one, without waiting.
    @usableFromInline
    var instance: Service? {
        // A strong reference loaded from a weak one may be the last: it is released by the
        // caller, after the lock.
        let object = state.withLock { state -> Any? in
            switch state {
            case .strong: return keptInstance()
            case .weak(let box): return box.object
            case .empty, .creating, .retired: return nil
            }
        }
        return object.flatMap { $0 as? Service }
    }

    /// The strongly kept instance, if any: the fast path of a cached `.container` singleton,
    /// with no lock.
    @inlinable
    var strongInstance: Service? {
        // Counted, so that a reset that clears the address waits for this read to end before it
        // lets the box go; a read counted after that wait loads the cleared address.
        guard let counter = readers.enter() else { return nil }
        defer { readers.leave(counter) }
        guard let address = UnsafeRawPointer(bitPattern: keptAddress.load(ordering: .sequentiallyConsistent)) else {
            return nil
        }
        // The cell's reference keeps the box alive until the reset that takes it has seen this
        // read end; the instance is retained for the caller before that.
        return Unmanaged<Kept>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.instance }
    }

    /// Returns the cached instance, or the right to create it, waiting while another thread is
    /// creating it.
    @usableFromInline
    func claim() -> Claim {
        var spins = 0
        while true {
            let claim = state.withLock { state -> Claim? in
                switch state {
                case .strong:
                    return .instance(keptInstance())
                case .weak(let box):
                    if let object = box.object as? Service { return .instance(object) }
                    state = .creating
                    return .create
                case .empty:
                    state = .creating
                    return .create
                case .creating:
                    return nil
                case .retired:
                    return .create
                }
            }
            if let claim { return claim }
            spins += 1
            if spins < 100 { sched_yield() } else { usleep(50) }
        }
    }

    /// Publishes the instance created after a ``Claim/create``.
    @usableFromInline
    func publish(_ instance: Service, weakly: Bool) {
        let newState: State
        var kept: Unmanaged<Kept>?
        if weakly, type(of: instance) is AnyClass {
            newState = .weak(WeakBox(instance as AnyObject))
        } else if weakly {
            newState = .empty  // A value type cannot be held weakly: behave like `.transient`.
        } else {
            newState = .strong
            kept = Unmanaged.passRetained(Kept(instance))
        }
        let old = state.withLock { state -> (State, Unmanaged<Kept>?) in
            // A retired cell keeps nothing: the unpublished box goes after the lock.
            if case .retired = state { return (.retired, kept) }
            if kept != nil { readers.prepare() }
            defer { state = newState }
            return (state, exchangeKept(kept))
        }
        old.1?.release()
    }

    /// Gives up a ``Claim/create`` after the factory failed, so that another resolver may try.
    @usableFromInline
    func abandon() {
        state.withLock { state in
            if case .creating = state { state = .empty }
        }
    }

    /// Drops the cached instance (released outside the lock).
    func reset() {
        let old = state.withLock { state -> (State, Unmanaged<Kept>?) in
            let kept = exchangeKept(nil)
            switch state {
            case .creating, .retired:
                return (.empty, kept)
            case .empty, .strong, .weak:
                defer { state = .empty }
                return (state, kept)
            }
        }
        old.1?.release()
    }

    /// Drops the cached instance for good, once the registration has been replaced: a resolve
    /// that found the old registration before the replacement gets an instance of its own, which
    /// is not kept.
    func retire() {
        let old = state.withLock { state -> (State, Unmanaged<Kept>?) in
            defer { state = .retired }
            return (state, exchangeKept(nil))
        }
        old.1?.release()
    }

    /// The strongly kept instance. Call with the lock held and the state `.strong`: only
    /// `publish`, `reset` and `retire` change the box, and they hold the lock to do it.
    private func keptInstance() -> Service {
        let address = UnsafeRawPointer(bitPattern: keptAddress.load(ordering: .relaxed))!
        return Unmanaged<Kept>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.instance }
    }

    /// Publishes `kept` (a retained box, or `nil`) for lock-free reads and returns the box it
    /// replaces, retained, once no read can still be using it. Call with the lock held.
    private func exchangeKept(_ kept: Unmanaged<Kept>?) -> Unmanaged<Kept>? {
        let desired = kept.map { UInt(bitPattern: $0.toOpaque()) } ?? 0
        let old = keptAddress.exchange(desired, ordering: .sequentiallyConsistent)
        guard let address = UnsafeRawPointer(bitPattern: old) else { return nil }
        // Reads that may have loaded the old address are still counted; later ones load the new
        // one. A read runs no user code and never takes the lock, so this wait is short.
        readers.waitForReaders()
        return Unmanaged<Kept>.fromOpaque(address)
    }
}
