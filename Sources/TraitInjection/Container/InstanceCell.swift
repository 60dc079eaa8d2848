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
final class InstanceCell: Sendable {
    enum State {
        case empty
        case creating
        case strong(Any)
        case weak(WeakBox)
    }

    final class WeakBox {
        weak var object: AnyObject?

        init(_ object: AnyObject) { self.object = object }
    }

    /// What a resolver should do.
    enum Claim {
        case instance(Any)
        case create
    }

    private let state = Locked.make(State.empty)

    /// The cached instance, if there is one, without waiting.
    var instance: Any? {
        let (instance, released) = state.withLock { state -> (Any?, AnyObject?) in
            switch state {
            case .strong(let instance): return (instance, nil)
            case .weak(let box):
                // The strong reference loaded here may be the last; it is released by the caller.
                if let object = box.object { return (object, nil) }
                return (nil, nil)
            case .empty, .creating: return (nil, nil)
            }
        }
        _ = released
        return instance
    }

    /// Returns the cached instance, or the right to create it, waiting while another thread is
    /// creating it.
    func claim() -> Claim {
        var spins = 0
        while true {
            let claim = state.withLock { state -> Claim? in
                switch state {
                case .strong(let instance):
                    return .instance(instance)
                case .weak(let box):
                    if let object = box.object { return .instance(object) }
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
    func publish(_ instance: Any, weakly: Bool) {
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
