/// What the property of a declared service (``RegisteredWith``) says: where it stands, its
/// default factory, and the refinements beside it.
///
/// Made again on every use of the property, so it is plain values: a factory closure that
/// captures nothing is not allocated, and a refinement sets a field. Only the first use in a
/// container files it (``register(in:factory:onlyIfAbsent:)``), which makes its boxes.
@usableFromInline
struct Declaration<each Argument, Service>: Sendable {
    /// The default factory: synchronous, or else async. (Two fields, not an enum: an enum cannot
    /// take the argument types' pack.)
    @usableFromInline var sync: (@Sendable (Resolution, repeat each Argument) throws -> Service)?
    @usableFromInline var async: (@Sendable (AsyncResolution, repeat each Argument) async throws -> Service)?
    /// The rank of the context whose factory is the default (``RegisteredWith/onTest(_:)``): `0`
    /// for none.
    @usableFromInline var contextRank: UInt8 = 0
    /// `#fileID`, `#line`, `#column` and `#function` where the property calls its container: the
    /// key, and what errors show.
    @usableFromInline let file: String
    @usableFromInline let line: UInt
    @usableFromInline let column: UInt
    @usableFromInline let property: String
    @usableFromInline var scope: Scope<Service> = .graph
    @usableFromInline var completions: [Binding.Completion] = []

    @inlinable
    init(
        sync: (@Sendable (Resolution, repeat each Argument) throws -> Service)?,
        async: (@Sendable (AsyncResolution, repeat each Argument) async throws -> Service)? = nil,
        file: String,
        line: UInt,
        column: UInt,
        property: String
    ) {
        self.sync = sync
        self.async = async
        self.file = file
        self.line = line
        self.column = column
        self.property = property
    }

    /// Makes `factory` the default, chosen by the context of `rank`.
    @inlinable
    mutating func choose(
        _ factory: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service, rank: UInt8
    ) {
        sync = factory
        async = nil
        contextRank = rank
    }

    /// What the service is filed under in every container.
    @inlinable
    var key: ServiceKey {
        ServiceKey(
            declared: Service.self, arguments: (repeat each Argument).self, file: file, line: line, column: column)
    }

    /// The service as errors, the trace and the dependency graph show it: `Container.database
    /// (Database)`.
    var description: ServiceDescription {
        ServiceDescription(
            Service.self, name: nil, arguments: (repeat each Argument).self, declaredAs: "Container.\(property)")
    }

    /// Files the service in `container` with `factory` (registered at `location`), or else its
    /// default one, and the declared refinements — if `onlyIfAbsent`, only if `container` has no
    /// registration of it.
    @discardableResult
    func register(
        in container: Container,
        factory: Binding.Factory? = nil,
        at location: String? = nil,
        onlyIfAbsent: Bool
    ) -> Registration<Service> {
        let box: Binding.Factory
        if let factory {
            box = factory
        } else if let sync {
            box = .sync(FactoryBox(sync))
        } else {
            box = .async(AsyncFactoryBox(async!))
        }
        var draft = Registration<Service>.Draft()
        draft.scope = scope.kind
        draft.completions = completions
        return file(box, in: container, at: location, draft: draft, onlyIfAbsent: onlyIfAbsent)
    }

    /// Files `factory` as this service's registration in `container`, refined as `draft` says.
    @discardableResult
    private func file(
        _ factory: Binding.Factory,
        in container: Container,
        at location: String? = nil,
        draft: Registration<Service>.Draft,
        autoInjects: Bool = true,
        onlyIfAbsent: Bool = false
    ) -> Registration<Service> {
        Registration(
            in: container, key: key, description: description, location: location ?? Container.location(file, line),
            forwarding: Forwarding<Service, repeat each Argument>(name: nil), factory: factory,
            autoInjects: autoInjects, draft: draft, onlyIfAbsent: onlyIfAbsent,
            declared: (key, { container in reset(in: container) }))
    }

    /// Undoes an override in `container`: where the service's default is kept (a container
    /// without a parent, or a test's), files a new default in its place; in a child, files a
    /// registration that resolves the service from the parent, as if the child had none (a
    /// registry never forgets a key).
    func reset(in container: Container) {
        guard let parent = container.parent, !container.keepsDeclaredDefaults else {
            register(in: container, onlyIfAbsent: false)
            return
        }
        let declaration = self
        let factory: Binding.Factory
        if let _ = sync {
            @Sendable func fromParent(_: Resolution, _ arguments: repeat each Argument) throws -> Service {
                try RegisteredWith(declaration, in: parent)(repeat each arguments)
            }
            factory = .sync(FactoryBox(fromParent))
        } else {
            @Sendable func fromParent(_: AsyncResolution, _ arguments: repeat each Argument) async throws -> Service {
                try await RegisteredWith(declaration, in: parent).resolveAsync(repeat each arguments)
            }
            factory = .async(AsyncFactoryBox(fromParent))
        }
        var draft = Registration<Service>.Draft()
        draft.scope = .transient
        file(factory, in: container, draft: draft, autoInjects: false)
    }

    /// Files the default unless `container`, or a parent, has a registration of the service:
    /// its first use there. The default goes where declared defaults are kept
    /// (``Container/declaredDefaultsHome``: the container without a parent, or a test's), so that
    /// the children of a container share its instances and see its overrides, whichever of them
    /// uses the service first. Exactly once, however many threads and tasks use it first at once:
    /// it is filed under that container's lock only if none is there
    /// (``Container/file(_:for:forwardedFrom:replacing:onlyIfAbsent:)``).
    @usableFromInline
    func registerDefault(in container: Container) {
        guard container.entry(for: key) == nil else { return }
        register(in: container.declaredDefaultsHome, onlyIfAbsent: true)
    }
}
