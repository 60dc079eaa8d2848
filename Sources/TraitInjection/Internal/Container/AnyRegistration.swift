/// A registration seen without its service type.
@usableFromInline
protocol AnyRegistration: AnyObject, Sendable {
    /// This registration as a step of a resolution path.
    var step: ResolutionError.Step { get }
    /// Drops the instance kept by the `.container` and `.weak` scopes.
    func resetKeptInstance()
    /// Drops the kept instance for good: the registration has been replaced.
    func retire()
    var reinitializeStrategy: ReinitializeStrategy { get }
    var takesArguments: Bool { get }
    var summary: String { get }
    /// Resolves this registration (which takes no arguments) in `resolution`.
    func resolve(in resolution: Resolution) throws(ResolutionError)
    /// Resolves this registration (which takes no arguments) in an async `resolution`.
    func resolve(in resolution: AsyncResolution) async throws(ResolutionError)
    /// Whether the factory awaits or is isolated to the main actor.
    var isolation: FactoryIsolation { get }
    /// Whether only an async resolve can make an instance.
    var needsAsyncResolve: Bool { get }
    var scope: ScopeKind { get }
    /// The container this was registered in.
    var owner: Container { get }
}

extension Registration: AnyRegistration {
    @usableFromInline
    var reinitializeStrategy: ReinitializeStrategy {
        configuration.withLock { $0.reinitializeStrategy }
    }

    @usableFromInline
    func resetKeptInstance() {
        cell.reset()
        asyncCell.reset()
    }

    @usableFromInline
    func retire() {
        cell.retire()
        asyncCell.retire()
    }

    @usableFromInline
    var summary: String { "\(description) at \(location)\(assembly.map { " in \($0)" } ?? "")" }

    @usableFromInline
    func resolve(in resolution: Resolution) throws(ResolutionError) {
        _ = try resolution.resolve(Service.self, name: description.name)
    }

    @usableFromInline
    func resolve(in resolution: AsyncResolution) async throws(ResolutionError) {
        _ = try await resolution.resolve(Service.self, name: description.name)
    }
}
