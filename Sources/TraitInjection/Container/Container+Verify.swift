extension Container {
    /// Resolves every registration visible from this container in a dry run and reports every
    /// problem at once: missing registrations, cycles, throwing factories.
    ///
    /// Factories do run (so side effects happen), but container- and weak-scoped instances made by
    /// the dry run are not kept. Registrations that take arguments are listed as skipped.
    ///
    /// ```swift
    /// @Test func graphIsComplete() throws {
    ///     try AppContainer.make().verify()
    /// }
    /// ```
    ///
    /// - Throws: A ``VerificationReport`` listing every registration that cannot be resolved.
    public func verify() throws(VerificationReport) {
        var seen = Set<ServiceKey>()
        var problems: [ResolutionError] = []
        var skipped: [String] = []
        var container: Container? = self
        while let current = container {
            let entries = current.registry.withLock(\.table.entries).sorted {
                $0.registration.summary < $1.registration.summary
            }
            for (key, registration) in entries where seen.insert(key).inserted {
                guard !registration.takesArguments else {
                    skipped.append(registration.summary)
                    continue
                }
                do {
                    try withTopLevelResolution(isDryRun: true) { context throws(ResolutionError) in
                        try registration.resolve(in: context.resolution(from: self))
                    }
                } catch {
                    problems.append(error)
                }
            }
            container = current.parent
        }
        guard problems.isEmpty else { throw VerificationReport(problems: problems, skipped: skipped) }
    }
}
