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
@usableFromInline
final class InstanceCell<Service>: Sendable {
    @usableFromInline
    enum State {
        case empty
        case creating
        case strong(Service)
        case weak(WeakBox)
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

    @usableFromInline
    let state = Locked.make(State.empty, ownCacheLines: true)

    /// The cached instance, if there is one, without waiting.
    @usableFromInline
    var instance: Service? {
        // A strong reference loaded from a weak one may be the last: it is released by the
        // caller, after the lock.
        let object = state.withLock { state -> Any? in
            switch state {
            case .strong(let instance): return instance
            case .weak(let box): return box.object
            case .empty, .creating: return nil
            }
        }
        return object.flatMap { $0 as? Service }
    }

    /// The strongly kept instance, if any: the fast path of a cached `.container` singleton.
    @inlinable
    var strongInstance: Service? {
        state.withLock { state in
            if case .strong(let instance) = state { return instance }
            return nil
        }
    }

    /// Returns the cached instance, or the right to create it, waiting while another thread is
    /// creating it.
    @usableFromInline
    func claim() -> Claim {
        var spins = 0
        while true {
            let claim = state.withLock { state -> Claim? in
                switch state {
                case .strong(let instance):
                    return .instance(instance)
                case .weak(let box):
                    if let object = box.object as? Service { return .instance(object) }
                    state = .creating
                    return .create
                case .empty:
                    state = .creating
                    return .create
                case .creating:
                    return nil
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
        if weakly, type(of: instance) is AnyClass {
            newState = .weak(WeakBox(instance as AnyObject))
        } else if weakly {
            newState = .empty  // A value type cannot be held weakly: behave like `.transient`.
        } else {
            newState = .strong(instance)
        }
        let old = state.withLock { state -> State in
            defer { state = newState }
            return state
        }
        _ = old
    }

    /// Gives up a ``Claim/create`` after the factory failed, so that another resolver may try.
    @usableFromInline
    func abandon() {
        state.withLock { $0 = .empty }
    }

    /// Drops the cached instance (released outside the lock).
    func reset() {
        let old = state.withLock { state -> State in
            guard case .creating = state else {
                defer { state = .empty }
                return state
            }
            return .empty
        }
        _ = old
    }
}
