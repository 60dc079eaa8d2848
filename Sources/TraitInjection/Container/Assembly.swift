/// A module of registrations: the services of one part of an app, registered together.
///
/// ```swift
/// struct NetworkAssembly: Assembly {
///     func assemble(into container: Container) {
///         container.register(HTTPClient.self) { _ in URLSessionClient() }.inScope(.container)
///         container.register(FeedService.self) { r in FeedService(client: try r.resolve(HTTPClient.self)) }
///     }
/// }
///
/// let container = Container(assemblies: [StorageAssembly(), NetworkAssembly()])
/// ```
///
/// Assemblies may come in any order: a registration is looked up only when something is
/// resolved, so one assembly's services may depend on another's. Registering the same service,
/// name and argument types again replaces the earlier registration, so a later assembly overrides
/// an earlier one — a test's assembly, put last, replaces what it needs to.
///
/// Every registration remembers the assembly that made it: `verify()`, the errors of
/// a resolve and ``Container/localRegistrations`` name it, as in
/// `FeedService (Network.swift:4 in NetworkAssembly)`.
public protocol Assembly {
    /// Registers this module's services in `container`.
    func assemble(into container: Container)
}

extension Container {
    /// Creates a container, optionally falling back to `parent`, with the services of
    /// `assemblies` registered in it, in order.
    ///
    /// ```swift
    /// let container = Container(assemblies: [StorageAssembly(), NetworkAssembly()])
    /// ```
    public convenience init(parent: Container? = nil, assemblies: [any Assembly]) {
        self.init(parent: parent)
        apply(assemblies)
    }

    /// Registers the services of `assemblies` in this container, in order; each registration
    /// remembers the assembly that made it.
    ///
    /// ```swift
    /// container.apply([StubNetworkAssembly()])  // replaces the network services, for a test
    /// ```
    public func apply(_ assemblies: [any Assembly]) {
        for assembly in assemblies {
            Self.$assembling.withValue(String(describing: type(of: assembly))) {
                assembly.assemble(into: self)
            }
        }
    }

    /// The type name of the assembly registering services in the current task, if any.
    @TaskLocal static var assembling: String?
}
