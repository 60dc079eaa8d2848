/// A declared service (``RegisteredWith``) read through a factory's resolver: `r.database` in
/// `self { r in ProfileStore(database: try r.database()) }`, resolved as part of the factory's
/// resolve.
///
/// ```swift
/// extension Container {
///     var database: Registered<Database> { self { _ in Database(path: "app.sqlite") }.inScope(.container) }
///     var profile: Registered<ProfileStore> { self { r in ProfileStore(database: try r.database()) } }
///     var catalog: Registered<Catalog> { self { r in await Catalog.open(try await r.database.resolveAsync()) } }
/// }
/// ```
///
/// It resolves only: a factory that overrides or resets a service does it on its container,
/// `Container.shared.database.register { … }`.
///
/// `Owner` is the type that declares the service: ``Container``, or an app's
/// ``ServiceContainer``, whose services a factory reads as `r[\PaymentServices.processor]`.
public struct DeclaredDependency<Owner: ServiceContainer, each Argument, Service> {
    /// The service's property, read on the container the resolve looks up from (its getter may
    /// branch on the container), or on an app's type's ``ServiceContainer/shared``.
    @usableFromInline let property: KeyPath<Owner, RegisteredWith<repeat each Argument, Service>>
    @usableFromInline let resolver: DeclaredResolver

    @inlinable
    init(_ property: KeyPath<Owner, RegisteredWith<repeat each Argument, Service>>, resolver: DeclaredResolver) {
        self.property = property
        self.resolver = resolver
    }

    /// Resolves a service declared on an app's ``ServiceContainer`` with runtime `arguments`, as
    /// part of the factory's resolve, as `r.database()` does a service declared on
    /// ``Container``: `try r[\PaymentServices.processor]()`. If the type's container is not the
    /// resolve's, or one of its parents, it is resolved there, as a resolve of its own.
    public func callAsFunction(_ arguments: repeat each Argument) throws(ResolutionError) -> Service {
        // No lookup in the resolve's container first: it may hold the default of a service whose
        // type keeps it in a child container, filed in that child's root (a review's finding).
        try resolveFirst(repeat each arguments)
    }

    /// ``callAsFunction(_:)`` where the service is not registered yet, from an async factory, or
    /// declared on an app's type.
    @usableFromInline
    func resolveFirst(_ arguments: repeat each Argument) throws(ResolutionError) -> Service {
        let lookup = try lookup()
        guard let declaration = declaration(in: lookup) else {
            // An app's type's service whose container is not in this resolve's: resolved there.
            return try Owner.shared[keyPath: property](repeat each arguments)
        }
        if case .sync(let resolution) = resolver {
            // The property read on the resolver's container may be another declaration (a
            // getter that branches on its container): resolve the one registered, by its key.
            return try declaration.resolveFirst(from: resolution, filingIn: lookup, arguments: repeat each arguments)
        }
        if let found = try lookup.find(Service.self, key: declaration.key, arguments: repeat each arguments) {
            return found
        }
        return try declaration.resolveFirst(from: lookup, filingIn: lookup, arguments: repeat each arguments)
    }

    /// Resolves the service with runtime `arguments` from an async factory, as part of its
    /// resolve: any factory, async, synchronous or main-actor.
    public func resolveAsync(_ arguments: repeat each Argument) async throws(ResolutionError) -> Service {
        let lookup = try lookup()
        guard let declaration = declaration(in: lookup) else {
            return try await Owner.shared[keyPath: property].resolveAsync(repeat each arguments)
        }
        guard case .async(let resolver) = resolver else {
            // A synchronous factory's resolver is valid on its thread only, not across `await`.
            return try await declaration.resolveAsync(from: lookup, arguments: repeat each arguments)
        }
        return try await declaration.resolveAsync(
            from: lookup, in: resolver.resolution, arguments: repeat each arguments)
    }

    /// The declaration to resolve from `lookup`, the container the resolve looks up from: the
    /// property read on it, for a service declared on ``Container``; read on the app's type's
    /// ``ServiceContainer/shared``, if its container is `lookup` or one of `lookup`'s parents
    /// (a test's child container sees its overrides); `nil` if not: resolved in its own.
    func declaration(in lookup: Container) -> Declaration<repeat each Argument, Service>? {
        if let lookup = lookup as? Owner { return lookup[keyPath: property].declaration }
        let declared = Owner.shared[keyPath: property]
        var container: Container? = lookup
        while let current = container {
            if current === declared.container { return declared.declaration }
            container = current.parent
        }
        return nil
    }

    /// The container the resolve looks up from, while the resolver is valid.
    func lookup() throws(ResolutionError) -> Container {
        let lookup: Container? =
            switch resolver {
            case .sync(let resolution): resolution.lookup
            case .async(let resolver): resolver.resolution.resolve.isRunning ? resolver.resolution.lookup : nil
            }
        guard let lookup else { throw .expired(Service.self, name: nil, arguments: (repeat each Argument).self) }
        return lookup
    }
}

extension DeclaredDependency where Owner == Container {
    /// Resolves the service with runtime `arguments`, as part of the factory's resolve: its
    /// `.graph` instances shared, its cycles reported with their path.
    ///
    /// In an async factory, this is a synchronous resolve from the factory's container, as
    /// `container.resolve` is; `try await r.catalog.resolveAsync()` is part of its resolve.
    ///
    /// - Throws: ``ResolutionError`` as ``RegisteredWith/callAsFunction(_:)`` does, or
    ///   ``ResolutionError/Kind-swift.enum/resolverExpired`` for a resolver kept past its resolve.
    @inlinable
    @inline(__always)
    public func callAsFunction(_ arguments: repeat each Argument) throws(ResolutionError) -> Service {
        // Inlined into the factory, where `property` is the literal `\.database`: the optimiser
        // then calls the property's getter in place of applying a key path (about 600
        // instructions a resolve otherwise, measured), and keeps only the key. Read on a
        // container of the library's own: `Container.shared` reads a task-local value.
        if case .sync(let resolution) = resolver,
            let found = try resolution.find(
                Service.self, key: Container.declaring[keyPath: property].declaration.key,
                arguments: repeat each arguments)
        {
            return found
        }
        return try resolveFirst(repeat each arguments)
    }
}

/// The resolver a ``DeclaredDependency`` is resolved with.
@usableFromInline
enum DeclaredResolver {
    /// A synchronous factory's: valid while its thread's resolve is there (``Resolution/lookup``).
    case sync(Resolution)
    /// An async factory's resolution, boxed: it holds its container weakly, so that an instance
    /// that keeps what its factory read does not keep the container (which keeps the
    /// instance); a `weak` field here would make every copy of this value, synchronous factories'
    /// included, go through generic value witnesses.
    case async(AsyncResolver)
}

/// An async factory's resolution, in a box (``DeclaredResolver/async(_:)``).
@usableFromInline
final class AsyncResolver: Sendable {
    let resolution: AsyncResolution

    init(_ resolution: AsyncResolution) {
        self.resolution = resolution
    }
}
