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
    @usableFromInline let sync: (@Sendable (Resolution, repeat each Argument) throws -> Service)?
    @usableFromInline let async: (@Sendable (AsyncResolution, repeat each Argument) async throws -> Service)?
    /// The rank of the context whose factory is the default (``RegisteredWith/onTest(_:)``): `0`
    /// for none.
    @usableFromInline let contextRank: UInt8
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
        property: String,
        contextRank: UInt8 = 0
    ) {
        self.sync = sync
        self.async = async
        self.contextRank = contextRank
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
        var chosen = Declaration(
            sync: factory, file: file, line: line, column: column, property: property, contextRank: rank)
        chosen.scope = scope
        chosen.completions = completions
        self = chosen
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
        return Registration(
            in: container, key: key, description: description, location: location ?? Container.location(file, line),
            forwarding: Forwarding<Service, repeat each Argument>(name: nil), factory: box, draft: draft,
            onlyIfAbsent: onlyIfAbsent, declared: (key, isDefault: factory == nil), unfiled: unfiled)
    }

    /// The binding that stands in the service's entry once it is unregistered (``reset(in:)``):
    /// its factory resolves the service again, from where its resolve looks it up.
    @Sendable
    func unfiled() -> Binding {
        let declaration = self
        @Sendable func again(_ r: Resolution, _ arguments: repeat each Argument) throws(ResolutionError) -> Service {
            guard let lookup = r.lookup else {
                throw .expired(Service.self, name: nil, arguments: (repeat each Argument).self)
            }
            return try declaration.resolveFirst(from: r, filingIn: lookup, arguments: repeat each arguments)
        }
        return Binding(
            Service.self, description: description, location: Container.location(file, line), assembly: nil,
            scope: .transient, factory: .sync(FactoryBox(again)), completions: [], reinitializeStrategy: .reCreate,
            autoInjects: false)
    }

    /// Undoes an override in `container`: unregisters the service there, so that a resolve from
    /// it finds the parent's registration again, or files the default on its next use.
    func reset(in container: Container) {
        withExtendedLifetime(container.unfile([key])) {}
    }

    /// Whether it has no default: another module provides it (``Container/promised(file:line:column:property:)``).
    var isPromised: Bool {
        if let _ = sync { return false }
        if let _ = async { return false }
        return true
    }

    /// Resolves the service from `origin` (a container, or a resolver from `container`) when it
    /// was not found there: files its default in `container` and looks again — again, if a reset
    /// came between.
    @usableFromInline
    func resolveFirst(
        from origin: some Origin,
        filingIn container: Container,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        while true {
            guard registerDefault(in: container) else { throw unkeptPromise(from: origin) }
            if let found = try origin.find(Service.self, key: key, arguments: repeat each arguments) { return found }
        }
    }

    /// Files the default unless `container`, or a parent, has a registration of the service:
    /// its first use there. The default goes where declared defaults are kept
    /// (``Container/declaredDefaultsHome``: the container without a parent, or a test's), so that
    /// the children of a container share its instances and see its overrides, whichever of them
    /// uses the service first. Exactly once, however many threads and tasks use it first at once:
    /// it is filed under that container's lock only if none is there
    /// (``Container/file(_:for:forwardedFrom:replacing:onlyIfAbsent:)``).
    ///
    /// - Returns: Whether the service is registered now: not if it is promised and nobody
    ///   registered it.
    @discardableResult
    func registerDefault(in container: Container) -> Bool {
        guard container.entry(for: key) == nil else { return true }
        guard !isPromised else { return false }
        register(in: container.declaredDefaultsHome, onlyIfAbsent: true)
        return true
    }

    /// The error of a promised service that nobody registered, resolved from `origin` (with its
    /// path), or at the top.
    func unkeptPromise(from origin: (some Origin)?) -> ResolutionError {
        var path: [ResolutionError.Step] = []
        do {
            // Nothing is registered as `Promise`: the engine's error for it carries the path.
            _ = try origin?.unregistered(Promise.self, name: nil)
        } catch {
            path = error.path
        }
        var error = ResolutionError(kind: .notRegistered, service: description.description, path: path)
        error.promised = ("\(property.prefix { $0 != "(" })", Container.location(file, line))
        return error
    }
}

/// What ``Declaration/unkeptPromise(from:)`` resolves to find its path: registered nowhere.
private enum Promise {}
