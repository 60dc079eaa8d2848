/// A service resolved anew on each call: resolve `Provider<Service>` (or declare
/// `@Inject var makeService: Provider<Service>`) for any registered `Service`, with nothing more
/// to register.
///
/// ```swift
/// container.register(UploadQueue.self) { r in
///     UploadQueue(makeJob: try r.resolve(Provider<UploadJob>.self))
/// }
/// let queue = try container.resolve(UploadQueue.self)
/// let job = try queue.makeJob()  // a top-level resolve of UploadJob, now
/// ```
///
/// Each call is a top-level resolve of `Service` from the container that made the provider, so
/// it respects that container's scopes: a ``Scope/transient`` or ``Scope/graph`` service is new on
/// each call (in a new graph, unlike a ``Lazy``, which resolves in the graph that made it), a
/// ``Scope/container`` one is the container's singleton.
///
/// A `Provider` holds its container weakly, so a service kept by the container can hold one
/// without keeping the container alive. Calling it after the container is gone throws
/// ``ResolutionError/Kind-swift.enum/containerReleased``.
public struct Provider<Service>: Sendable {
    weak var container: Container?
    let name: String?

    init(resolvingFrom container: Container, name: String?, graph _: () -> GraphRecord?) {
        self.container = container
        self.name = name
    }

    /// Resolves the service now.
    ///
    /// - Throws: The ``ResolutionError`` of the resolve, or
    ///   ``ResolutionError/Kind-swift.enum/containerReleased`` if the container is gone.
    public func callAsFunction() throws(ResolutionError) -> Service {
        guard let container else { throw ResolutionError.containerReleased(Provider.self, name: name) }
        return try container.resolve(Service.self, name: name)
    }
}
