public import Synchronization

/// What a ``Lazy`` shares between its copies: its container, held weakly, and the instance,
/// resolved once.
///
/// The instance is kept by a `.container`-scoped registration of its own, filed in no container,
/// whose factory resolves `Service` by its name. Its first access is a top-level resolve of that
/// registration, so it gets what a singleton gets: one thread creates while the others sleep
/// until it is published (or, if the threads would wait for each other, a deadlock error); a
/// cycle back to the `Lazy` through its own first resolve is reported with its path; nothing is
/// kept unless the whole resolve succeeds.
///
/// Once the cell has published the instance, which it never replaces (no container files this
/// registration, so no reset or replacement reaches it), the storage publishes it too, in a box
/// of its own read with one atomic load: the cell's own lock-free read counts its readers, for
/// resets, and cost 32 ns against 11 ns for this one, and an `@Inject` read (Benchmarks/README.md).
@usableFromInline
final class LazyStorage<Service>: Sendable {
    /// Weak: a service the container keeps may hold the `Lazy`.
    weak let container: Container?
    @usableFromInline
    let registration: Registration<Service>
    /// The published instance, in an immutable box.
    @usableFromInline
    final class Kept {
        @usableFromInline let instance: Service

        init(_ instance: Service) { self.instance = instance }
    }

    /// The address of the ``Kept`` box (retained) holding the instance once the cell
    /// has published it, or 0. Written once, by a compare-and-swap from 0.
    @usableFromInline
    let published = Atomic<UInt>(0)

    init(resolvingFrom container: Container, name: String?) {
        self.container = container
        registration = Registration(
            description: ServiceDescription(Lazy<Service>.self, name: name, arguments: Void.self),
            location: Lazy<Service>.deferral,
            owner: container,
            autoInjects: false,
            factory: FactoryBox<Service> { r in try r.resolve(Service.self, name: name) }
        )
        registration.scopeCode.store(ScopeKind.container.rawValue, ordering: .relaxed)
        // A completion of its own, so that its claim is complete only once every completion of
        // its resolve has run, the service's among them: a nested resolve on this thread that
        // asks for it meanwhile gets a cycle error, as for the service itself, rather than a
        // half-built instance.
        registration.initCompleted { _, _ in }
    }

    deinit {
        if let address = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) {
            Unmanaged<Kept>.fromOpaque(address).release()
        }
    }

    /// The instance, once published.
    @inlinable
    var kept: Service? {
        guard let address = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring)) else { return nil }
        // The storage owns one reference to the box until it deinits.
        return Unmanaged<Kept>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.instance }
    }

    /// Resolves the instance, or waits for the thread resolving it.
    @usableFromInline
    func resolve() throws(ResolutionError) -> Service {
        // Published by the cell after a first access inside another resolve, which has ended.
        if let kept = registration.cell.strongInstance {
            publish(kept)
            return kept
        }
        guard let container else {
            throw ResolutionError.containerReleased(Lazy<Service>.self, name: registration.description.name)
        }
        // Held here, since the registration's `owner` does not keep it.
        let instance = try withExtendedLifetime(container) { () throws(ResolutionError) in
            try container.resolve(registration)
        }
        // Published once the cell has: a first access inside another resolve is kept only if
        // that resolve succeeds as a whole.
        if let kept = registration.cell.strongInstance { publish(kept) }
        return instance
    }

    /// Publishes `instance` unless it already is.
    private func publish(_ instance: Service) {
        let box = Unmanaged.passRetained(Kept(instance))
        let address = UInt(bitPattern: box.toOpaque())
        let (won, _) = published.compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing)
        if !won { box.release() }
    }
}
