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
}
