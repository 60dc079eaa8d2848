extension Container {
    /// Resolves every registration visible from this container in a dry run and reports every
    /// problem at once: missing registrations, cycles, throwing factories, and kept instances
    /// that keep shorter-lived ones (``LifetimeProblem``).
    ///
    /// Factories do run (so side effects happen), also those of shared instances already kept,
    /// as on a new container; what the dry run makes is not kept, and what is kept stays.
    /// Registrations that take arguments are listed as skipped, and so are async ones (and
    /// main-actor ones off the main actor), which ``verifyAsync()`` checks.
    ///
    /// ```swift
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
        let run = dryRun()
        let report = VerificationReport(
            problems: run.problems, lifetimeProblems: run.findings.problems, skipped: run.skipped)
        guard report.problems.isEmpty, report.lifetimeProblems.isEmpty else { throw report }
        return report
    }

    /// ``verify()``, with `promises` (the unkept ones of ``ServiceContainer/verify(including:)``)
    /// among its problems.
    func verify(reporting promises: [ResolutionError]) throws(VerificationReport) -> VerificationReport {
        let run = dryRun()
        let report = VerificationReport(
            // A promise found unkept by a dependent's dry run too is reported once, with its path.
            problems: promises.filter { promise in !run.problems.contains { $0.service == promise.service } }
                + run.problems,
            lifetimeProblems: run.findings.problems, skipped: run.skipped)
        guard report.problems.isEmpty, report.lifetimeProblems.isEmpty else { throw report }
        return report
    }

    /// What a synchronous dry run of every visible registration finds.
    struct DryRun {
        let bindings: [Binding]
        var problems: [ResolutionError] = []
        var skipped: [String] = []
        let findings: DryRunFindings
    }

    /// Resolves every registration visible from this container in a dry run: what ``verify()``
    /// and ``dependencyGraph()`` report.
    func dryRun() -> DryRun {
        var run = DryRun(bindings: visibleBindings(), findings: DryRunFindings(checking: self))
        for binding in run.bindings {
            if binding.takesArguments {
                run.skipped.append(binding.summary + VerificationReport.takesArguments)
            } else if binding.needsAsyncResolve {
                run.skipped.append(binding.summary + " (async: checked by `verifyAsync()`)")
            } else if binding.isMainActor, !MainQueue.isCurrent {
                run.skipped.append(binding.summary + " (main actor: verify on the main actor, or with `verifyAsync()`)")
            } else {
                do {
                    let stack = ResolvingThread.current.stack
                    try stack.topLevel(self, nested: false, findings: run.findings, describing: binding.step.service) {
                        t throws(ResolutionError) in
                        try binding.verify(Resolution(top: t, in: stack))
                    }
                } catch {
                    run.problems.append(error)
                }
            }
        }
        return run
    }

    /// The registrations visible from this container: its own, then those of its parents that
    /// no nearer container overrides, each container's sorted by description — but not the
    /// declared defaults above a container that keeps its own (``lookUp(_:)``), nor what a reset
    /// unregistered as they were read (``Binding/standIn()``).
    func visibleBindings() -> [Binding] {
        var seen = Set<ServiceKey>()
        var visible: [Binding] = []
        var container: Container? = self
        var keepsOwnDefaults = false
        while let current = container {
            let entries = current.registry.entries.map { key, entry in (key, entry.read().binding) }
            for (key, binding) in entries.sorted(by: { $0.1.summary < $1.1.summary })
            where !binding.isStandIn && !(keepsOwnDefaults && binding.isDeclaredDefault) && seen.insert(key).inserted {
                visible.append(binding)
            }
            keepsOwnDefaults = keepsOwnDefaults || current.keepsDeclaredDefaults
            container = current.parent
        }
        return visible
    }
}

extension ServiceContainer {
    /// Checks the declared `services` as well, which need not have been used in this container
    /// yet: files their defaults (as a first use would; nothing is made and kept), then verifies
    /// as ``Container/verify()`` does. A ``promised(file:line:column:property:)`` service that nobody
    /// registered is a problem.
    ///
    /// A declared service is a computed property, which the library cannot list: name those to
    /// check — every service an app declares, in a test — or use them first. ``Container/verify()`` checks
    /// the declared services used or overridden in this container, and those their factories
    /// use.
    ///
    /// ```swift
    /// @Test func everyServiceResolves() throws {
    ///     try Container.shared.verify(including: \.database, \.profile, \.analytics)
    /// }
    /// ```
    ///
    /// - Parameter services: Properties of declared services (``RegisteredWith``); another key
    ///   path is a programming error, which stops the program with a message naming it.
    @discardableResult
    public func verify(including services: PartialKeyPath<Self>...) throws(VerificationReport)
        -> VerificationReport
    {
        try container.verify(reporting: fileDefaults(of: services))
    }

    /// Files the defaults of the declared `services` that have no registration here, as their
    /// first use would; returns the errors of the promised ones nobody registered.
    func fileDefaults(of services: [PartialKeyPath<Self>]) -> [ResolutionError] {
        services.compactMap { property in
            guard let declared = self[keyPath: property] as? any DeclaredService else {
                preconditionFailure(
                    "\(property) is not a declared service's property (a RegisteredWith): verify(including:) and dependencyGraph(including:) take those only"
                )
            }
            return declared.fileDefault()
        }
    }
}
