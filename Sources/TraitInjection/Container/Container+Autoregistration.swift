extension Container {
    /// Registers `Service`, made by `initializer` with each of its parameters resolved from the
    /// container: no factory closure to write, for an initializer of any number of parameters.
    ///
    /// ```swift
    /// final class FeedViewModel {
    ///     init(service: FeedService, cache: ImageCache, clock: any Clock) { … }
    /// }
    /// container.autoregister(FeedViewModel.self, initializer: FeedViewModel.init)
    /// ```
    ///
    /// Each parameter is resolved by its type, unnamed, within the same resolve (so `.graph`
    /// services are shared and cycles are reported). A parameter whose type is not registered
    /// fails the resolve with ``ResolutionError/Kind-swift.enum/notRegistered`` naming that type
    /// and the registration that needed it: `ImageCache is not registered, needed by
    /// FeedViewModel (Feed.swift:12).`
    ///
    /// Up to six parameters, a resolve costs what a hand-written factory's does. From seven on,
    /// each parameter is resolved through the parameter pack, which Swift does not specialise:
    /// about 2.1–2.7× a hand-written factory (`Benchmarks/README.md`). Write the factory by hand
    /// where that matters.
    ///
    /// It is not an overload of `register`: a closure literal of one parameter,
    /// `register(X.self) { r in … }`, would then also read as an initializer taking one
    /// parameter, and existing call sites would become ambiguous or change meaning.
    ///
    /// - Returns: The registration, to refine like any other.
    @inlinable @discardableResult
    public func autoregister<Service, each Parameter>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) -> Registration<Service> {
        register(service, name: name, file: file, line: line) { r in
            try initializer(repeat try r.resolve((each Parameter).self))
        }
    }

    // The same for one to six parameters, without a parameter pack: Swift does not specialise the
    // resolves inside a pack expansion, so each would run as unspecialised generic code (2.4× a
    // hand-written factory on the 4-object graph; Benchmarks/README.md). The overloads resolve
    // each parameter with its type known at the call site, as a hand-written factory does.
    // Hidden from the documentation: to a caller they are the function above.

    // Arity 1, specialised.
    @inlinable @discardableResult @_documentation(visibility: internal)
    public func autoregister<Service, P1>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (P1) throws -> Service
    ) -> Registration<Service> {
        register(service, name: name, file: file, line: line) { r in try initializer(try r.resolve(P1.self)) }
    }

    // Arity 2, specialised.
    @inlinable @discardableResult @_documentation(visibility: internal)
    public func autoregister<Service, P1, P2>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (P1, P2) throws -> Service
    ) -> Registration<Service> {
        register(service, name: name, file: file, line: line) { r in
            try initializer(try r.resolve(P1.self), try r.resolve(P2.self))
        }
    }

    // Arity 3, specialised.
    @inlinable @discardableResult @_documentation(visibility: internal)
    public func autoregister<Service, P1, P2, P3>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (P1, P2, P3) throws -> Service
    ) -> Registration<Service> {
        register(service, name: name, file: file, line: line) { r in
            try initializer(try r.resolve(P1.self), try r.resolve(P2.self), try r.resolve(P3.self))
        }
    }

    // Arity 4, specialised.
    @inlinable @discardableResult @_documentation(visibility: internal)
    public func autoregister<Service, P1, P2, P3, P4>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (P1, P2, P3, P4) throws -> Service
    ) -> Registration<Service> {
        register(service, name: name, file: file, line: line) { r in
            try initializer(
                try r.resolve(P1.self), try r.resolve(P2.self), try r.resolve(P3.self), try r.resolve(P4.self))
        }
    }

    // Arity 5, specialised.
    @inlinable @discardableResult @_documentation(visibility: internal)
    public func autoregister<Service, P1, P2, P3, P4, P5>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (P1, P2, P3, P4, P5) throws -> Service
    ) -> Registration<Service> {
        register(service, name: name, file: file, line: line) { r in
            try initializer(
                try r.resolve(P1.self), try r.resolve(P2.self), try r.resolve(P3.self), try r.resolve(P4.self),
                try r.resolve(P5.self))
        }
    }

    // Arity 6, specialised.
    @inlinable @discardableResult @_documentation(visibility: internal)
    public func autoregister<Service, P1, P2, P3, P4, P5, P6>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        initializer: @escaping @Sendable (P1, P2, P3, P4, P5, P6) throws -> Service
    ) -> Registration<Service> {
        register(service, name: name, file: file, line: line) { r in
            try initializer(
                try r.resolve(P1.self), try r.resolve(P2.self), try r.resolve(P3.self), try r.resolve(P4.self),
                try r.resolve(P5.self), try r.resolve(P6.self))
        }
    }
}
