extension Container {
    // MARK: Declaring services

    /// Declares a service with its default `factory`: what the computed property of a declared
    /// service returns (``RegisteredWith``).
    ///
    /// ```swift
    /// extension Container {
    ///     var database: Registered<Database> { self { _ in Database(path: "app.sqlite") }.inScope(.container) }
    ///     var greeter: RegisteredWith<String, Greeter> { self { _, greeting in Greeter(greeting) } }
    /// }
    /// ```
    ///
    /// The service is keyed by where this is called — `file`, `line` and `column`, which stay as
    /// they are — and named by `property`, the property calling it.
    @inlinable
    public func callAsFunction<Service, each Argument>(
        file: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        property: StaticString = #function,
        _ factory: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> RegisteredWith<repeat each Argument, Service> {
        RegisteredWith(
            Declaration(
                sync: factory, site: DeclarationSite(file: file, line: line, column: column, property: property)),
            in: self)
    }

    /// Declares a service with an async default `factory`, which only an async resolve can run:
    /// `try await container.catalog.resolveAsync()`.
    ///
    /// ```swift
    /// extension Container {
    ///     var catalog: Registered<Catalog> { self { r in await Catalog.open() }.inScope(.container) }
    /// }
    /// ```
    @inlinable
    public func callAsFunction<Service, each Argument>(
        file: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        property: StaticString = #function,
        _ factory: @escaping @Sendable (AsyncResolution, repeat each Argument) async throws -> Service
    ) -> RegisteredWith<repeat each Argument, Service> {
        RegisteredWith(
            Declaration(
                async: factory, site: DeclarationSite(file: file, line: line, column: column, property: property)),
            in: self)
    }

    /// Declares a service whose default `factory` is isolated to the main actor: a view model,
    /// or another `@MainActor` type. A closure marked `@MainActor` selects this overload:
    ///
    /// ```swift
    /// extension Container {
    ///     var profileModel: Registered<ProfileViewModel> {
    ///         self { @MainActor r in ProfileViewModel(store: try r.profile()) }
    ///     }
    /// }
    /// ```
    ///
    /// On the main actor, `try Container.shared.profileModel()` makes it there and then. From
    /// elsewhere, `try await Container.shared.profileModel.resolveAsync()` runs the factory on
    /// the main actor; a synchronous resolve off the main actor throws
    /// ``ResolutionError/Kind-swift.enum/needsMainActor`` instead of running it there, as for a
    /// main-actor registration (``register(_:name:file:line:factory:)-(_,_,_,_,(Resolution,Argument)->Service)``).
    @inlinable
    public func callAsFunction<Service: Sendable, each Argument: Sendable>(
        file: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        property: StaticString = #function,
        _ factory: @escaping @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> RegisteredWith<repeat each Argument, Service> {
        RegisteredWith(
            Declaration(
                mainActor: factory,
                site: DeclarationSite(file: file, line: line, column: column, property: property)),
            in: self)
    }

    /// Declares a service without a default, which another module provides: a feature module
    /// declares what it needs, the app registers it.
    ///
    /// ```swift
    /// extension Container {
    ///     var analytics: Registered<any Analytics> { promised() }
    /// }
    ///
    /// // Where the app starts:
    /// Container.shared.analytics.register { _ in FirebaseAnalytics() }
    /// ```
    ///
    /// Resolving it before anyone registered it throws
    /// ``ResolutionError/Kind-swift.enum/notRegistered``, naming the property and where it is
    /// declared; ``verify(including:)`` reports it. Refinements (``RegisteredWith/inScope(_:)``)
    /// apply to the registration that provides it.
    @inlinable
    public func promised<Service, each Argument>(
        file: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column,
        property: StaticString = #function
    ) -> RegisteredWith<repeat each Argument, Service> {
        RegisteredWith(
            Declaration(
                sync: nil, site: DeclarationSite(file: file, line: line, column: column, property: property)),
            in: self)
    }

    /// Where a resolver reads a declared service's property (``Resolution/subscript(dynamicMember:)``):
    /// a property only says what its service is, whichever container it is read on.
    @usableFromInline static let declaring = Container()

    /// Undoes the overrides of every declared service in this container and drops the instances
    /// their scopes kept here: the next use files the default again, or finds a parent's
    /// registration. What a test that overrode several calls when it ends. A parent's
    /// registrations stay.
    public func resetDeclaredServices() {
        withExtendedLifetime(unfile(registry.entries.map(\.key).filter(\.isDeclared))) {}
    }
}
