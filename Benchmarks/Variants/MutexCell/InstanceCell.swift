// The plain baseline for the technique split (Benchmarks/README.md): the instance cell with the
// kept instance in its locked state, read under the lock. Everything else is as shipped.

/// The instance a `.container` or `.weak` registration keeps, behind one lock.
@usableFromInline
final class InstanceCell<Service>: Sendable {
    @usableFromInline
    enum State {
        case empty
        case creating(CreationOwner, hasWaiters: Bool)
        case strong(Service)
        case weak(WeakBox)
        case retired
    }

    @usableFromInline
    final class WeakBox {
        weak var object: AnyObject?

        init(_ object: AnyObject) { self.object = object }
    }

    @usableFromInline
    enum Claim {
        case instance(Service)
        case create(epoch: UInt64)
        case createUnkept
        case ownClaim
    }

    @usableFromInline
    struct Guarded {
        @usableFromInline var state = State.empty
        var epoch: UInt64 = 0
    }

    let serviceDescription: String

    init(serviceDescription: String) {
        self.serviceDescription = serviceDescription
    }

    @usableFromInline
    let state = Locked.make(Guarded(), ownCacheLines: true)

    /// The cached instance, if there is one, without waiting.
    @usableFromInline
    var instance: Service? {
        let object = state.withLock { guarded -> Any? in
            switch guarded.state {
            case .strong(let instance): return instance
            case .weak(let box): return box.object
            case .empty, .creating, .retired: return nil
            }
        }
        return object.flatMap { $0 as? Service }
    }

    /// The strongly kept instance, if any, read under the lock.
    @inlinable
    var strongInstance: Service? {
        state.withLock { guarded in
            if case .strong(let instance) = guarded.state { return instance }
            return nil
        }
    }

    func claim(by owner: CreationOwner) throws(CreationWaits.Deadlock) -> Claim {
        if case .ready(let claim) = answer(owner, markingWaiters: false) { return claim }
        return try CreationWaits.wait(for: self, by: owner) { answer(owner, markingWaiters: true) }
    }

    private func answer(_ owner: CreationOwner, markingWaiters: Bool) -> CreationWaits.Answer<Claim> {
        var loaded: AnyObject?
        defer { withExtendedLifetime(loaded) {} }
        return state.withLock { guarded in
            switch guarded.state {
            case .strong(let instance):
                return .ready(.instance(instance))
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

    func publish(_ instance: Service, weakly: Bool, epoch: UInt64, by owner: CreationOwner) {
        var weakBox: WeakBox?
        if weakly {
            let isObject = type(of: instance as Any) is AnyClass
            if isObject { weakBox = WeakBox(instance as AnyObject) }
        }
        let wake = state.withLock { guarded -> Bool in
            guard case .creating(let creator, let hasWaiters) = guarded.state, creator == owner else {
                return false
            }
            guard guarded.epoch == epoch else {
                guarded.state = .empty
                return hasWaiters
            }
            if weakly {
                guarded.state = weakBox.map(State.weak) ?? .empty
            } else {
                guarded.state = .strong(instance)
            }
            return hasWaiters
        }
        if wake { CreationWaits.wakeWaiters() }
    }

    @usableFromInline
    func abandon(by owner: CreationOwner) {
        let wake = state.withLock { guarded -> Bool in
            guard case .creating(let creator, let hasWaiters) = guarded.state, creator == owner else { return false }
            guarded.state = .empty
            return hasWaiters
        }
        if wake { CreationWaits.wakeWaiters() }
    }

    func reset() {
        clear(retiring: false)
    }

    func retire() {
        clear(retiring: true)
    }

    private func clear(retiring: Bool) {
        var dropped: State = .empty
        let wake = state.withLock { guarded -> Bool in
            guarded.epoch &+= 1
            dropped = guarded.state
            guarded.state = retiring ? .retired : .empty
            if case .creating(_, let hasWaiters) = dropped { return hasWaiters }
            return false
        }
        withExtendedLifetime(dropped) {}
        if wake { CreationWaits.wakeWaiters() }
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
