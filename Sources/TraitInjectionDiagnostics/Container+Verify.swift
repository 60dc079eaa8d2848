public import TraitInjection

extension Container {
    /// Resolves every registration visible from this container in a dry run and reports every
    /// problem at once: missing registrations, cycles, throwing factories, and kept instances
    /// that keep shorter-lived ones (`LifetimeProblem`).
    ///
    /// Factories do run (so side effects happen), also those of shared instances already kept,
    /// as on a new container; what the dry run makes is not kept, and what is kept stays.
    /// Registrations that take arguments are listed as skipped, and so are async ones (and
    /// main-actor ones off the main actor), which ``TraitInjection/Container/verifyAsync()``
    /// checks.
    ///
    /// ```swift
    /// import TraitInjectionDiagnostics
    ///
    /// @Test func graphIsComplete() throws {
    ///     let report = try AppContainer.make().verify()
    ///     #expect(report.skipped.isEmpty)
    /// }
    /// ```
    ///
    /// - Returns: The report, also when it found nothing wrong: its ``VerificationReport/skipped``
    ///   lists what the dry run could not check.
    /// - Throws: A ``VerificationReport`` listing every problem, if there is one.
    @discardableResult
    public func verify() throws(VerificationReport) -> VerificationReport {
        try VerificationReport(dryRun())
    }

    /// Resolves every registration visible from this container in a dry run, as
    /// ``TraitInjection/Container/verify()`` does, and reports every problem at once — including
    /// the async and main-actor registrations that `verify()` cannot run.
    ///
    /// ```swift
    /// import TraitInjectionDiagnostics
    ///
    /// @Test func graphIsComplete() async throws {
    ///     try await AppContainer.make().verifyAsync()
    /// }
    /// ```
    ///
    /// - Returns: The report, also when it found nothing wrong.
    /// - Throws: A ``VerificationReport`` listing every problem, if there is one.
    @discardableResult
    public func verifyAsync() async throws(VerificationReport) -> VerificationReport {
        try VerificationReport(await dryRunAsync())
    }
}

extension ServiceContainer {
    /// Checks the declared `services` as well, which need not have been used in this container
    /// yet: files their defaults (as a first use would; nothing is made and kept), then verifies
    /// as ``TraitInjection/Container/verify()`` does. A `promised()` service that nobody
    /// registered is a problem.
    ///
    /// A declared service is a computed property, which the library cannot list: name those to
    /// check — every service an app declares, in a test — or use them first. `verify()` checks
    /// the declared services used or overridden in this container, and those their factories
    /// use.
    ///
    /// ```swift
    /// import TraitInjectionDiagnostics
    ///
    /// @Test func everyServiceResolves() throws {
    ///     try Container.shared.verify(including: \.database, \.profile, \.analytics)
    /// }
    /// ```
    ///
    /// - Parameter services: Properties of declared services (`RegisteredWith`); another key
    ///   path is a programming error, which stops the program with a message naming it.
    @discardableResult
    public func verify(including services: PartialKeyPath<Self>...) throws(VerificationReport)
        -> VerificationReport
    {
        // The defaults first: the dry run then checks them, and what they need.
        let promises = fileDefaults(of: services)
        return try VerificationReport(container.dryRun(), promises: promises)
    }
}
