/// The value behind one ``Inject`` or ``WeakInject`` property: resolved on first access or by
/// auto-injection, then kept (strongly or weakly) until the property is set.
///
/// The wrapper is a struct holding this reference, so that a copy of the wrapper, such as the one
/// `Mirror` hands to auto-injection, fills in the same property. Setting the property gives the
/// wrapper a new storage, so struct copies diverge on write.
///
/// The service is resolved with no lock held, since factories are user code. When several
/// threads access an unresolved property at once, each may resolve it, but only the first value
/// published is kept, and every access returns that one.
@usableFromInline
final class InjectionStorage<Service>: Sendable {
    @usableFromInline
    enum State {
        case unresolved
        case strong(Service)
        case weak(WeakReference)
    }

    /// A class, not a struct, so that copying a `State` is a retain rather than a weak-reference
    /// copy through the type's value witnesses, on the `@Inject` read path too.
    @usableFromInline
    final class WeakReference {
        @usableFromInline weak var object: AnyObject?

        init(object: AnyObject?) { self.object = object }
    }

    @usableFromInline
    let state: Locked<State>
    let request: InjectionRequest<Service>
    let holdsWeakly: Bool

    init(_ request: InjectionRequest<Service>, holdsWeakly: Bool) {
        state = Locked.make(.unresolved)
        self.request = request
        self.holdsWeakly = holdsWeakly
    }

    /// The storage of a property declared as `declaration` (`@Inject property`) at `file`:`line`.
    convenience init<each Argument: Sendable>(
        _ declaration: String,
        holdsWeakly: Bool,
        name: String?,
        arguments: repeat each Argument,
        file: StaticString,
        line: UInt
    ) {
        let request = InjectionRequest<Service>(
            declaration: declaration,
            name: name,
            arguments: repeat each arguments,
            file: file,
            line: line
        )
        self.init(request, holdsWeakly: holdsWeakly)
    }

    /// A storage for the same request that holds `value`, set by hand.
    func replacing(with value: Service?) -> InjectionStorage<Service> {
        let storage = InjectionStorage(request, holdsWeakly: holdsWeakly)
        storage.state.withLock { $0 = Self.state(holding: value, weakly: holdsWeakly) }
        return storage
    }

    // MARK: Reading

    /// The strongly held service: an ``Inject`` property's read, resolving from
    /// ``Container/shared`` on first access and stopping with an ``InjectionError`` if it cannot.
    @inlinable
    var strongValue: Service {
        let held = state.withLock { state -> Service? in
            if case .strong(let service) = state { return service }
            return nil
        }
        return held ?? resolveOrStop()!
    }

    /// What the property holds, or `.none` if it has not been resolved or set.
    @inlinable
    var heldValue: Service?? {
        // A weak reference is written only when it is created, so it is loaded after the lock,
        // and the object it yields is released by the caller.
        let state = state.withLock { $0 }
        switch state {
        case .unresolved: return .none
        case .strong(let service): return .some(service)
        case .weak(let reference): return .some(reference.object.flatMap { $0 as? Service })
        }
    }

    /// A ``WeakInject`` property's read: the object while it lives, `nil` after.
    @inlinable
    var weakValue: Service? {
        if let held = heldValue { return held }
        return resolveOrStop()
    }

    @usableFromInline
    func resolveOrStop() -> Service? {
        do {
            return try resolve(from: Container.shared)
        } catch {
            request.stop(with: error)
        }
    }

    // MARK: Resolving

    /// Resolves the service from `resolver` unless the property already holds one, and returns
    /// what the property holds afterwards: the first value published wins.
    func resolve(from resolver: any Resolver) throws(InjectionError) -> Service? {
        if let held = heldValue { return held }
        let made = try request.resolve(from: resolver)
        if holdsWeakly, !(type(of: made as Any) is AnyClass) {
            throw InjectionError(
                notAnObject: type(of: made as Any),
                declaration: request.declaration,
                location: request.location
            )
        }
        let published = Self.state(holding: made, weakly: holdsWeakly)
        let won = state.withLock { state -> Bool in
            guard case .unresolved = state else { return false }
            state = published
            return true
        }
        // Another thread published first: use its value; `made` is released here, after the lock.
        return won ? made : heldValue ?? made
    }

    private static func state(holding value: Service?, weakly: Bool) -> State {
        guard weakly else { return value.map(State.strong) ?? .unresolved }
        return .weak(WeakReference(object: value.map { $0 as AnyObject }))
    }
}
