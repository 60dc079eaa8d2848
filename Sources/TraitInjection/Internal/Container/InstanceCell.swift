public import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    #error("TraitInjection supports Darwin, Glibc and Musl platforms.")
#endif

/// The instance a `.container` or `.weak` registration keeps, created by one resolve at a time.
///
/// A resolve that finds the cell empty claims it (``claim(by:)``) and runs the factory with no
/// lock held. The instance it makes is only *published* — kept, and handed to other threads and
/// to later resolves — once that resolve has succeeded as a whole: every `initCompleted` closure
/// and auto-injection of its graph has run. If anything in the resolve fails, the claim is
/// abandoned and nothing is kept. Other threads that want the instance meanwhile sleep in
/// ``CreationWaits`` until it is published or abandoned; a wait that would close a cycle between
/// threads is reported as a deadlock.
///
/// A reset (or the registration being replaced) while an instance is being created bumps
/// `epoch`, so the instance being created is handed to its resolve but not kept.
///
/// A strongly kept instance is also published in a ``Kept`` box behind an atomic address, which
/// a resolve reads without the lock. Each such read is counted in `readers` while it runs; a
/// reset clears the address, then waits (holding the lock, so no new box is published meanwhile;
/// a read that starts now loads the cleared address and claims the cell instead) until no read
/// is in flight before it lets the box go, so that no read can retain an instance the reset has
/// already released. Threads count their reads on cache lines of their own, so threads
/// reading the same singleton contend only on its reference count.
@usableFromInline
final class InstanceCell<Service>: Sendable {
    @usableFromInline
    enum State {
        case empty
        /// A resolve claimed the cell; `hasWaiters` if other threads sleep until it is done.
        case creating(CreationOwner, hasWaiters: Bool)
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

    /// What a resolve that wants the instance gets.
    @usableFromInline
    enum Claim {
        /// The published instance.
        case instance(Service)
        /// The right to create it: publish it with this epoch once the resolve succeeds.
        case create(epoch: UInt64)
        /// The registration was replaced: create an instance, which is not kept.
        case createUnkept
        /// This thread's own resolve is creating it.
        case ownClaim
    }

    @usableFromInline
    struct Guarded {
        var state = State.empty
        /// Bumped by every reset and by retirement: a creation claimed before is not kept.
        var epoch: UInt64 = 0
    }

    /// A strongly kept instance, in an immutable box whose address is published for lock-free
    /// reads.
    @usableFromInline
    final class Kept {
        @usableFromInline let instance: Service

        init(_ instance: Service) { self.instance = instance }
    }

    /// `Registration (File.swift:12)`, for errors about waits.
    let serviceDescription: String

    init(serviceDescription: String) {
        self.serviceDescription = serviceDescription
    }

    @usableFromInline
    let state = Locked.make(Guarded(), ownCacheLines: true)

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
        let object = state.withLock { guarded -> Any? in
            switch guarded.state {
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

    /// Returns the published instance, or the right to create it, sleeping while another thread's
    /// resolve is creating it.
    ///
    /// - Parameter owner: The claiming thread's outermost resolve.
    /// - Throws: ``CreationWaits/Deadlock`` if the threads would wait for each other.
    func claim(by owner: CreationOwner) throws(CreationWaits.Deadlock) -> Claim {
        if case .ready(let claim) = answer(owner, markingWaiters: false) { return claim }
        return try CreationWaits.wait(for: self, by: owner) { answer(owner, markingWaiters: true) }
    }

    /// The claim `owner` gets now, or who is busy creating the instance.
    private func answer(_ owner: CreationOwner, markingWaiters: Bool) -> CreationWaits.Answer<Claim> {
        // A weakly kept object loaded here may be the last reference: released after the lock.
        var loaded: AnyObject?
        defer { withExtendedLifetime(loaded) {} }
        return state.withLock { guarded in
            switch guarded.state {
            case .strong:
                return .ready(.instance(keptInstance()))
            case .weak(let box):
                loaded = box.object
                if let object = loaded as? Service { return .ready(.instance(object)) }
                guarded.state = .creating(owner, hasWaiters: false)
                return .ready(.create(epoch: guarded.epoch))
            case .empty:
                guarded.state = .creating(owner, hasWaiters: false)
                return .ready(.create(epoch: guarded.epoch))
            case .creating(let creator, let hasWaiters):
                if creator == owner { return .ready(.ownClaim) }
                if markingWaiters, !hasWaiters { guarded.state = .creating(creator, hasWaiters: true) }
                return .busy(creator)
            case .retired:
                return .ready(.createUnkept)
            }
        }
    }

    /// Publishes the instance that `owner` created after a ``Claim/create(epoch:)``, once its
    /// resolve has succeeded. Not kept if the cell was reset or retired since the claim.
    func publish(_ instance: Service, weakly: Bool, epoch: UInt64, by owner: CreationOwner) {
        var kept: Unmanaged<Kept>?
        var weakBox: WeakBox?
        // `.weak` keeps objects only: a value type (or a protocol-typed value that is not an
        // object) behaves like `.transient`.
        if weakly {
            let isObject = type(of: instance as Any) is AnyClass
            if isObject { weakBox = WeakBox(instance as AnyObject) }
        } else {
            kept = Unmanaged.passRetained(Kept(instance))
        }
        let (replaced, wake) = state.withLock { guarded -> (Unmanaged<Kept>?, Bool) in
            guard case .creating(let creator, let hasWaiters) = guarded.state, creator == owner else {
                return (kept, false)  // Reset or retired meanwhile: nothing is kept.
            }
            guard guarded.epoch == epoch else {
                guarded.state = .empty
                return (kept, hasWaiters)
            }
            if let kept {
                readers.prepare()
                guarded.state = .strong
                return (exchangeKept(kept), hasWaiters)
            }
            guarded.state = weakBox.map(State.weak) ?? .empty
            return (nil, hasWaiters)
        }
        // An unkept box (and its instance reference) goes here, after the lock.
        replaced?.release()
        if wake { CreationWaits.wakeWaiters() }
    }

    /// Gives up a ``Claim/create(epoch:)`` after its resolve failed, so that another may try.
    @usableFromInline
    func abandon(by owner: CreationOwner) {
        let wake = state.withLock { guarded -> Bool in
            guard case .creating(let creator, let hasWaiters) = guarded.state, creator == owner else { return false }
            guarded.state = .empty
            return hasWaiters
        }
        if wake { CreationWaits.wakeWaiters() }
    }

    /// Drops the cached instance (released outside the lock); an instance being created now is
    /// not kept.
    func reset() {
        clear(retiring: false)
    }

    /// Drops the cached instance for good, once the registration has been replaced: a resolve
    /// that found the old registration before the replacement gets an instance of its own, which
    /// is not kept.
    func retire() {
        clear(retiring: true)
    }

    private func clear(retiring: Bool) {
        var dropped: State = .empty
        let (kept, wake) = state.withLock { guarded -> (Unmanaged<Kept>?, Bool) in
            guarded.epoch &+= 1
            let kept = exchangeKept(nil)
            dropped = guarded.state
            guarded.state = retiring ? .retired : .empty
            if case .creating(_, let hasWaiters) = dropped { return (kept, hasWaiters) }
            return (kept, false)
        }
        kept?.release()
        withExtendedLifetime(dropped) {}  // A weak box, released here.
        if wake { CreationWaits.wakeWaiters() }
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

extension InstanceCell: CreationCell {
    func markWaiting(ifCreatedBy owner: CreationOwner) -> Bool {
        state.withLock { guarded in
            guard case .creating(let creator, _) = guarded.state, creator == owner else { return false }
            guarded.state = .creating(creator, hasWaiters: true)
            return true
        }
    }

    var creator: CreationOwner? {
        state.withLock { guarded in
            if case .creating(let creator, _) = guarded.state { return creator }
            return nil
        }
    }
}
