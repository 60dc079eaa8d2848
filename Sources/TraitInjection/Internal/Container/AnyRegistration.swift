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
}

extension Registration: AnyRegistration {
    @usableFromInline
    var reinitializeStrategy: ReinitializeStrategy {
        configuration.withLock { $0.reinitializeStrategy }
    }

    @usableFromInline
    func resetKeptInstance() { cell.reset() }

    @usableFromInline
    func retire() { cell.retire() }

    @usableFromInline
    var summary: String { "\(description) at \(location)" }

    @usableFromInline
    func resolve(in resolution: Resolution) throws(ResolutionError) {
        _ = try resolution.resolve(Service.self, name: description.name)
    }
}
