/// A service resolved on first access and kept: resolve `Lazy<Service>` (or declare
/// `@Inject var service: Lazy<Service>`) for any registered `Service`, with nothing more to
/// register.
///
/// ```swift
/// container.register(ReportBuilder.self) { r in
///     ReportBuilder(exporter: try r.resolve(Lazy<PDFExporter>.self))  // nothing made yet
/// }
/// let builder = try container.resolve(ReportBuilder.self)
/// let exporter = try builder.exporter.value  // resolved now, from the same container
/// ```
///
/// The first access resolves `Service` from the container that made the `Lazy`, in that
/// container's scopes, and later accesses return the same instance. It is resolved exactly once,
/// also when several threads access it first at the same time: one resolves it, the others wait
/// for that instance, as they would for a ``Scope/container`` singleton; a failed resolve keeps
/// nothing, and the next access tries again. Copies of a `Lazy` share its instance.
///
/// The first access resolves in the graph of the resolve that made the `Lazy`, once that resolve
/// has returned: a ``Scope/graph`` instance that resolve made is the one it gets, as long as
/// something still holds it (the `Lazy` holds the graph's objects weakly); otherwise it makes a
/// new one. Read before that resolve has succeeded (in one of its factories, on another thread
/// while it runs), or after it failed, it resolves in a graph of its own.
///
/// A `Lazy` keeps its instance as a stored property would: a ``Scope/weak`` service lives as
/// long as the `Lazy`, ``Container/resetScopedInstances()`` does not reach it, and an instance
/// that holds the `Lazy` strongly forms a reference cycle with it. `verify()` checks
/// an instance that holds a `Lazy` as if it held the service: a singleton with a `Lazy` of a
/// ``Scope/weak`` service is a lifetime problem. Take a ``Provider`` to follow the container's
/// scopes on every use (a new graph on each call).
///
/// A `Lazy` holds its container weakly, so a service kept by the container can hold a `Lazy`
/// without keeping the container alive. Accessing it after the container is gone throws
/// ``ResolutionError/Kind-swift.enum/containerReleased``.
///
/// A `Lazy` resolves synchronously: for a service with an async or main-actor factory, resolve it
/// with ``Container/resolveAsync(_:name:arguments:)`` where it is needed instead. A registration
/// with runtime arguments has no `Lazy`.
public struct Lazy<Service> {
    let storage: LazyStorage<Service>

    init(resolvingFrom container: Container, name: String?, graph: () -> GraphRecord?) {
        storage = LazyStorage(resolvingFrom: container, name: name, graph: graph())
    }

    /// The service: resolved on first access, the same instance afterwards.
    ///
    /// - Throws: The ``ResolutionError`` of the first resolve, or
    ///   ``ResolutionError/Kind-swift.enum/containerReleased`` if the container is gone.
    public var value: Service {
        get throws(ResolutionError) {
            try storage.value()
        }
    }
}

extension Lazy: Sendable where Service: Sendable {}
