public import Synchronization

/// The value behind one ``Inject`` or ``WeakInject`` property: resolved on first access or by
/// auto-injection, then kept (strongly or weakly) until the property is set.
///
/// The wrapper is a struct holding this reference, so that a copy of the wrapper, such as the one
/// `Mirror` hands to auto-injection, fills in the same property. Setting the property gives the
/// wrapper a new storage, so struct copies diverge on write.
///
/// The service is resolved with no lock held, since factories are user code. When several
/// threads access an unresolved property at once, each may resolve it, but only the first value
/// published (an `AtomicLazyReference`) is kept, and every access returns that one.
@usableFromInline
final class InjectionStorage<Service>: Sendable {
    /// What a property holds once it is resolved or set: a service held strongly, or an object
    /// held weakly.
    ///
    /// It is written once and never changed (setting the property makes a new storage), which is
    /// what lets a read skip every lock.
    ///
    /// `@unchecked Sendable` because `Service` need not be `Sendable`. A property hands its
    /// service to whichever thread reads it, just as a container hands a service to whichever
    /// thread resolves it. ``Inject`` and ``WeakInject`` are `Sendable` only when `Service` is.
    @usableFromInline
    final class Held: @unchecked Sendable {
        /// The service, if held strongly.
        @usableFromInline let service: Service?
        /// The object, if held weakly: `nil` once it is gone.
        @usableFromInline weak let object: AnyObject?
        @usableFromInline let isWeak: Bool

        init(service: Service) {
            self.service = service
            object = nil
            isWeak = false
        }

        init(weakly object: AnyObject?) {
            service = nil
            self.object = object
            isWeak = true
        }
    }

    /// The ``Held`` value, published once and never replaced; `nil` until the property is
    /// resolved or set.
    @usableFromInline
    let published = AtomicLazyReference<Held>()
    let request: InjectionRequest<Service>
    let holdsWeakly: Bool

    init(_ request: InjectionRequest<Service>, holdsWeakly: Bool) {
        self.request = request
        self.holdsWeakly = holdsWeakly
    }

    /// Reads the published value, or returns `nil` if there is none yet.
    @inlinable @inline(__always)
    func withHeld<Result>(_ body: (Held) -> Result) -> Result? {
        published.load().map(body)
    }

    /// Publishes `held` unless a value already is; returns whether `held` is the one published.
    func publish(_ held: Held) -> Bool {
        published.storeIfNil(held) === held
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
        if let held = Self.held(value, weakly: holdsWeakly) {
            _ = storage.publish(held)
        }
        return storage
    }

    // MARK: Reading

    /// The strongly held service: an ``Inject`` property's read, resolving from
    /// ``Container/shared`` on first access and stopping with an ``InjectionError`` if it cannot.
    ///
    /// After the first access this is one atomic load: no lock, no allocation.
    @inlinable
    var strongValue: Service {
        if let service = withHeld({ $0.service }) ?? nil { return service }
        return resolveOrStop()!
    }

    /// What the property holds, or `.none` if it has not been resolved or set.
    @inlinable
    var heldValue: Service?? {
        withHeld { held in
            guard held.isWeak else { return held.service }
            return held.object.flatMap { $0 as? Service }
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
        let made =
            if holdsWeakly, let resolution = resolver as? Resolution {
                try resolution.holdingWeakly { () throws(InjectionError) in try request.resolve(from: resolution) }
            } else {
                try request.resolve(from: resolver)
            }
        if holdsWeakly, !(type(of: made as Any) is AnyClass) {
            throw InjectionError(
                notAnObject: type(of: made as Any),
                declaration: request.declaration,
                location: request.location
            )
        }
        // The first value published wins; another thread's `made` is released by that thread.
        guard let fresh = Self.held(made, weakly: holdsWeakly) else { return made }
        return publish(fresh) ? made : heldValue ?? made
    }

    /// What a property holding `value` holds, or `nil` for a strong property given `nil`.
    private static func held(_ value: Service?, weakly: Bool) -> Held? {
        guard weakly else { return value.map(Held.init(service:)) }
        return Held(weakly: value.map { $0 as AnyObject })
    }
}
