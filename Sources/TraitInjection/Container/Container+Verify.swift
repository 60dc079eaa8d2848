extension Container {
    /// Resolves every registration visible from this container in a dry run and reports every
    /// problem at once: missing registrations, cycles, throwing factories, and kept instances
    /// that keep shorter-lived ones (``LifetimeProblem``).
    ///
    /// Factories do run (so side effects happen), also those of ``Scope/container`` and
    /// ``Scope/weak`` instances already kept, as on a new container; what the dry run makes is not
    /// kept, and what is kept stays. Registrations that take arguments are listed as skipped.
    ///
    /// ```swift
    /// @Test func graphIsComplete() throws {
    ///     try AppContainer.make().verify()
    /// }
    /// ```
    ///
    /// - Throws: A ``VerificationReport`` listing every registration that cannot be resolved.
    public func verify() throws(VerificationReport) {
        let run = dryRun()
        let lifetimeProblems = run.findings.problems
        guard run.problems.isEmpty, lifetimeProblems.isEmpty else {
            throw VerificationReport(problems: run.problems, lifetimeProblems: lifetimeProblems, skipped: run.skipped)
        }
    }

    /// What a synchronous dry run of every visible registration finds.
    struct DryRun {
        let registrations: [any AnyRegistration]
        var problems: [ResolutionError] = []
        var skipped: [String] = []
        let findings: DryRunFindings
    }

    /// Resolves every registration visible from this container in a dry run: what
    /// ``verify()`` and ``dependencyGraph()`` report.
    func dryRun() -> DryRun {
        var run = DryRun(registrations: visibleRegistrations(), findings: DryRunFindings(checking: self))
        for registration in run.registrations {
            if registration.takesArguments {
                run.skipped.append(registration.summary + VerificationReport.takesArguments)
            } else if registration.needsAsyncResolve {
                run.skipped.append(registration.summary + " (async: checked by `verifyAsync()`)")
            } else if registration.isolation == .mainActor, !MainQueue.isCurrent {
                run.skipped.append(
                    registration.summary + " (main actor: verify on the main actor, or with `verifyAsync()`)")
            } else {
                do {
                    try withTopLevelResolution(isDryRun: true) { context throws(ResolutionError) in
                        context.dryRunFindings = run.findings
                        try registration.resolve(in: context.resolution(from: self))
                    }
                } catch {
                    run.problems.append(error)
                }
            }
        }
        return run
    }

    /// The registrations visible from this container: its own, then those of its parents that
    /// no nearer container overrides, each container's sorted by description.
    func visibleRegistrations() -> [any AnyRegistration] {
        var seen = Set<ServiceKey>()
        var visible: [any AnyRegistration] = []
        var container: Container? = self
        while let current = container {
            let entries = current.registry.withLock(\.table.entries).sorted {
                $0.registration.summary < $1.registration.summary
            }
            for (key, registration) in entries where seen.insert(key).inserted {
                visible.append(registration)
            }
            container = current.parent
        }
        return visible
    }
}
