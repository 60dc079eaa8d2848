/// What the property of a declared service (``RegisteredWith``) says: where it stands, its
/// default factory, and the refinements beside it.
///
/// Made again on every use of the property, so it is plain values: a factory closure that
/// captures nothing is not allocated, and a refinement sets a field. Only the first use in a
/// container files it (``register(in:factory:at:onlyIfAbsent:)``), which makes its boxes.
///
/// Invariant: six words at most, so that a ``RegisteredWith`` (this and its container) is seven.
/// A value of more is copied and destroyed through its generic value witnesses wherever it is
/// not taken apart by the optimiser: about 150 instructions a use, measured, against the few
/// releases of these fields (`DeclaredServiceLayoutTests` checks the size).
@usableFromInline
struct Declaration<each Argument, Service>: Sendable {
    @usableFromInline typealias SyncFactory = @Sendable (Resolution, repeat each Argument) throws -> Service
    @usableFromInline typealias AsyncFactory = @Sendable (AsyncResolution, repeat each Argument) async throws -> Service
    @usableFromInline typealias MainActorFactory =
        @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service

    /// The default factory: the synchronous one, or the async or main-actor one with the same
    /// bits (``DeclarationSite/isAsync``, ``DeclarationSite/isMainActor``: each is a function and
    /// its context); `nil` for a promised service.
    @usableFromInline let factory: SyncFactory?
    /// Where it is declared, and which context chose the default.
    @usableFromInline let site: DeclarationSite
    /// The scope and `initCompleted` closures.
    @usableFromInline var refinements: DeclarationRefinements

    @inlinable
    init(sync factory: SyncFactory?, site: DeclarationSite) {
        self.factory = factory
        self.site = site
        refinements = .graph
    }

    @inlinable
    init(async factory: @escaping AsyncFactory, site: DeclarationSite) {
        // Both are a function and its context, two words: the bits go back in ``async``.
        self.factory =
            unsafeBitCast(AsyncFactoryValue(factory), to: SyncFactoryValue<repeat each Argument, Service>.self).run
        self.site = site.async
        refinements = .graph
    }

    /// Invariant: called only by overloads that require `Service` and the arguments to be
    /// `Sendable` (``Container/callAsFunction(file:line:column:property:_:)-(_,_,_,_,(Resolution,Argument)->Service)``
    /// for `@MainActor` closures): ``mainActorFactory(_:)`` hands them across actors unchecked.
    @inlinable
    init(mainActor factory: @escaping MainActorFactory, site: DeclarationSite) {
        self.factory =
            unsafeBitCast(MainActorFactoryValue(factory), to: SyncFactoryValue<repeat each Argument, Service>.self).run
        self.site = site.onMainActor
        refinements = .graph
    }

    /// The synchronous default factory, if it is one.
    var sync: SyncFactory? {
        site.isAsync || site.isMainActor ? nil : factory
    }

    /// The main-actor default factory, if it is one.
    var mainActor: MainActorFactory? {
        guard site.isMainActor, let factory else { return nil }
        return unsafeBitCast(SyncFactoryValue(factory), to: MainActorFactoryValue<repeat each Argument, Service>.self)
            .run
    }

    /// The async default factory, if it is one.
    var async: AsyncFactory? {
        guard site.isAsync, let factory else { return nil }
        return unsafeBitCast(SyncFactoryValue(factory), to: AsyncFactoryValue<repeat each Argument, Service>.self).run
    }

    /// Makes `factory` the default, chosen by the context of `rank`.
    @inlinable
    mutating func choose(_ factory: @escaping SyncFactory, rank: UInt8) {
        let refinements = refinements
        self = Declaration(sync: factory, site: site.chosen(by: rank))
        self.refinements = refinements
    }

    /// Makes the main-actor `factory` the default, chosen by the context of `rank` (the
    /// invariant of ``init(mainActor:site:)``).
    @inlinable
    mutating func choose(mainActor factory: @escaping MainActorFactory, rank: UInt8) {
        let refinements = refinements
        self = Declaration(mainActor: factory, site: site.chosen(by: rank))
        self.refinements = refinements
    }

    /// What the service is filed under in every container.
    @inlinable
    var key: ServiceKey {
        ServiceKey(declared: Service.self, arguments: (repeat each Argument).self, file: site.file, site: site.key)
    }

    /// The service as errors, the trace and the dependency graph show it: `Container.database
    /// (Database)`, or `processor (PaymentProcessor)` on an app's ``ServiceContainer``.
    var description: ServiceDescription {
        ServiceDescription(
            Service.self, name: nil, arguments: (repeat each Argument).self,
            declaredAs: site.isOnAppType ? "\(site.property)" : "Container.\(site.property)")
    }

    /// `Services.swift:12`.
    var location: String {
        Container.location(site.file, site.line)
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
        } else if let mainActor {
            box = mainActorFactory(mainActor)
        } else {
            box = .async(AsyncFactoryBox(async!))
        }
        var draft = Registration<Service>.Draft()
        draft.scope = refinements.scope
        draft.completions = refinements.completions
        return Registration(
            in: container, key: key, description: description, location: location ?? self.location,
            forwarding: Forwarding<Service, repeat each Argument>(name: nil), factory: box, draft: draft,
            onlyIfAbsent: onlyIfAbsent, declared: (key, isDefault: factory == nil))
    }

    /// Undoes an override in `container`: unregisters the service there, so that a resolve from
    /// it finds the parent's registration again, or files the default on its next use.
    func reset(in container: Container) {
        withExtendedLifetime(container.unfile([key])) {}
    }

    /// Whether it has no default: another module provides it (``Container/promised(file:line:column:property:)``).
    var isPromised: Bool {
        if let _ = factory { return false }
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

    /// Resolves the service from async code: from `lookup`, or as part of `resolution`'s
    /// resolve (an async factory's `r.catalog`), filing its default where its first use would.
    func resolveAsync(
        from lookup: Container,
        in resolution: AsyncResolution? = nil,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Service {
        let key = key
        if isPromised, lookup.entry(for: key) == nil { throw unkeptPromise(from: Container?.none) }
        let declared = self
        @Sendable func fileDefault(in container: Container) -> Bool { declared.registerDefault(in: container) }
        if let resolution {
            return try await resolution.resolve(
                Service.self, key: key, arguments: repeat each arguments, fileDefault: fileDefault)
        }
        return try await lookup.resolveAsyncInFull(
            Service.self, name: nil, arguments: repeat each arguments, key: key, fileDefault: fileDefault)
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
        error.promised = ("\(site.property.description.prefix { $0 != "(" })", location)
        return error
    }
}

extension Declaration {
    /// A binding's factory that runs the main-actor `factory` (a default, or an override): a
    /// resolve on the main actor calls it at once; an async one hops there and resolves the
    /// service as a synchronous part of its resolve — or, if a reset or a registration that needs
    /// an async resolve replaced it meanwhile, resolves it after the hop, with the async engine,
    /// which files the default again if it must.
    ///
    /// Its values cross actors unchecked: `factory` was given to an overload that requires the
    /// service and the arguments to be `Sendable` (the invariant of ``init(mainActor:site:)``),
    /// which this generic code cannot say.
    func mainActorFactory(_ factory: @escaping MainActorFactory) -> Binding.Factory {
        // Local functions: a closure literal cannot take a parameter pack.
        @Sendable func onMainActor(_ resolution: Resolution, _ arguments: repeat each Argument) throws -> Service {
            // Called by a synchronous resolve only where it runs on the main actor.
            // `assumeIsolated` runs the closure at once, on this thread, where the resolution lives.
            let resolution = UncheckedBox(resolution)
            let arguments = UncheckedBox((repeat each arguments))
            return try MainActor.assumeIsolated {
                let values = arguments.value
                return UncheckedBox(try factory(resolution.value, repeat each values))
            }.value
        }
        let declaration = self
        @Sendable func hop(_ resolution: AsyncResolution, _ arguments: repeat each Argument)
            async throws(ResolutionError) -> Service
        {
            guard let lookup = resolution.lookup else {
                throw ResolutionError.expired(Service.self, name: nil, arguments: (repeat each Argument).self)
            }
            let values = UncheckedBox((repeat each arguments))
            let made = try await resolution.onMainActor(declaration.key, from: lookup) {
                resolution throws(ResolutionError) in
                let arguments = values.value
                // Not registered (a reset came between): the async engine files the default after
                // the hop, which may need an async resolve.
                return try resolution.find(Service.self, key: declaration.key, arguments: repeat each arguments)
            }
            if let made { return made }
            return try await declaration.resolveAsync(from: lookup, in: resolution, arguments: repeat each arguments)
        }
        return .mainActor(FactoryBox(onMainActor), hop: MainActorHop(hop))
    }
}

/// What ``Declaration/unkeptPromise(from:)`` resolves to find its path: registered nowhere.
private enum Promise {}

/// A declaration's synchronous factory: a variadic function type is cast (``Declaration``'s
/// `init(async:site:)`) only inside a struct, where its representation is fixed.
@usableFromInline
struct SyncFactoryValue<each Argument, Service> {
    @usableFromInline let run: @Sendable (Resolution, repeat each Argument) throws -> Service

    @inlinable
    init(_ run: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service) {
        self.run = run
    }
}

/// A declaration's async factory, cast to and from a ``SyncFactoryValue``.
@usableFromInline
struct AsyncFactoryValue<each Argument, Service> {
    @usableFromInline let run: @Sendable (AsyncResolution, repeat each Argument) async throws -> Service

    @inlinable
    init(_ run: @escaping @Sendable (AsyncResolution, repeat each Argument) async throws -> Service) {
        self.run = run
    }
}

/// A declaration's main-actor factory, cast to and from a ``SyncFactoryValue``.
@usableFromInline
struct MainActorFactoryValue<each Argument, Service> {
    @usableFromInline let run: @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service

    @inlinable
    init(_ run: @escaping @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service) {
        self.run = run
    }
}
