extension Container {
    /// What a dry run of every registration visible from a container finds: what the
    /// `TraitInjectionDiagnostics` module's `verify()`, `verifyAsync()` and `dependencyGraph()`
    /// report. Made here, beside the engine it runs; reported there, so that an app that does not
    /// import that module does not compile the reports.
    package struct DryRun: Sendable {
        /// A registration visible from the container.
        package struct Service: Sendable {
            /// The service, where and by which assembly it was registered.
            package let step: ResolutionError.Step
            /// Its scope, as written: `container`, `graph`.
            package let scope: String
            /// The registration in a sentence, with its location: what a skipped one is listed as.
            package let summary: String
            /// Why the dry run did not resolve it (`" (takes runtime arguments)"`), or `nil` if it
            /// did.
            package var skippedBecause: String?
        }

        /// The registrations visible from the container (``Container/visibleBindings()``), in
        /// that order; then those they resolved that a nearer container hides (a parent's
        /// singleton resolves from the parent, also where a child overrides what it needs).
        package var services: [Service]
        /// The errors of the resolves of the registrations checked, one per failed registration.
        package var problems: [ResolutionError] = []
        /// Each dependency of one checked registration on another, as positions in ``services``,
        /// in the order they were first found.
        package var dependencies: [(dependent: Int, dependency: Int)] = []
        /// The lifetime problems found, one of each.
        package var lifetimeProblems: [LifetimeProblem] = []
        /// Each lifetime problem between two registrations in ``services``, as their positions:
        /// the holder's and the dependency's.
        package var lifetimeLinks: [(holder: Int, dependency: Int, problem: LifetimeProblem)] = []

        /// The registrations not checked, each with why: `Clock at App.swift:12 (takes runtime
        /// arguments)`.
        package var skipped: [String] {
            services.compactMap { service in service.skippedBecause.map { service.summary + $0 } }
        }

        /// Why a registration that takes runtime arguments is not checked.
        static let takesArguments = " (takes runtime arguments)"

        /// A dry run of `bindings` that has checked none yet.
        init(_ bindings: [Binding]) {
            services = bindings.map(Self.service)
        }

        private static func service(_ binding: Binding) -> Service {
            Service(step: binding.step, scope: "\(binding.scope)", summary: binding.summary)
        }

        /// Records what `findings` found among `bindings`, this dry run's registrations; one of
        /// `hidden` they resolved is added to ``services``.
        mutating func record(_ findings: DryRunFindings, among bindings: [Binding], hidden: [Binding]) {
            var positions: [ObjectIdentifier: Int] = [:]
            for (position, binding) in bindings.enumerated() {
                positions[ObjectIdentifier(binding)] = position
            }
            let hidden = Set(hidden.map(ObjectIdentifier.init))
            func position(of binding: Binding) -> Int {
                if let position = positions[ObjectIdentifier(binding)] { return position }
                services.append(Self.service(binding))
                positions[ObjectIdentifier(binding)] = services.count - 1
                return services.count - 1
            }
            // Not a `Lazy`'s own, nor one registered while the dry run ran.
            let known = { (binding: Binding) in
                positions[ObjectIdentifier(binding)] != nil || hidden.contains(ObjectIdentifier(binding))
            }
            dependencies = findings.edges.compactMap { edge in
                guard known(edge.dependent), known(edge.dependency) else { return nil }
                return (position(of: edge.dependent), position(of: edge.dependency))
            }
            lifetimeProblems = findings.problems
            lifetimeLinks = findings.links.compactMap { found in
                guard known(found.holder), known(found.dependency) else { return nil }
                return (position(of: found.holder), position(of: found.dependency), found.problem)
            }
        }
    }

    /// Resolves every registration visible from this container in a dry run, synchronously:
    /// those that take arguments, async ones and main-actor ones off the main actor are skipped.
    package func dryRun() -> DryRun {
        let (bindings, hidden) = registrations()
        let findings = DryRunFindings(checking: self)
        var run = DryRun(bindings)
        for (position, binding) in bindings.enumerated() {
            if binding.takesArguments {
                run.services[position].skippedBecause = DryRun.takesArguments
            } else if binding.needsAsyncResolve {
                run.services[position].skippedBecause = " (async: checked by `verifyAsync()`)"
            } else if binding.isMainActor, !MainQueue.isCurrent {
                run.services[position].skippedBecause =
                    " (main actor: verify on the main actor, or with `verifyAsync()`)"
            } else {
                do {
                    let stack = ResolvingThread.current.stack
                    try stack.topLevel(self, nested: false, findings: findings, describing: binding.step.service) {
                        t throws(ResolutionError) in
                        try binding.verify(Resolution(top: t, in: stack))
                    }
                } catch {
                    run.problems.append(error)
                }
            }
        }
        run.record(findings, among: bindings, hidden: hidden)
        return run
    }

    /// Resolves every registration visible from this container in an async dry run, as
    /// `resolveAsync` would: only those that take arguments are skipped.
    package func dryRunAsync() async -> DryRun {
        let (bindings, hidden) = registrations()
        let findings = DryRunFindings(checking: self)
        var run = DryRun(bindings)
        for (position, binding) in bindings.enumerated() {
            guard !binding.takesArguments else {
                run.services[position].skippedBecause = DryRun.takesArguments
                continue
            }
            let resolve = Resolve(self, entry: nil, isAsync: true, findings: findings)
            do throws(ResolutionError) {
                try await Resolve.counted { () async throws(ResolutionError) in
                    try await binding.verifyAsync(AsyncResolution(resolve, nil, self))
                    try await resolve.finishAsync(describing: binding.step.service)
                }
            } catch {
                resolve.fail()
                run.problems.append(error)
            }
        }
        run.record(findings, among: bindings, hidden: hidden)
        return run
    }

    /// The registrations visible from this container: its own, then those of its parents that
    /// no nearer container overrides, each container's sorted by description — but not the
    /// declared defaults above a container that keeps its own (``lookUp(_:)``), nor what a reset
    /// unregistered as they were read (``Binding/standIn()``).
    func visibleBindings() -> [Binding] {
        registrations().visible
    }

    /// The registrations visible from this container (``visibleBindings()``), and those of its
    /// parents that a nearer container hides: a parent's singleton, which resolves from the
    /// parent, may still use them.
    func registrations() -> (visible: [Binding], hidden: [Binding]) {
        var seen = Set<ServiceKey>()
        var visible: [Binding] = []
        var hidden: [Binding] = []
        var container: Container? = self
        var keepsOwnDefaults = false
        while let current = container {
            let entries = current.registry.entries.map { key, entry in (key, entry.read().binding) }
            for (key, binding) in entries.sorted(by: { $0.1.summary < $1.1.summary }) where !binding.isStandIn {
                if !(keepsOwnDefaults && binding.isDeclaredDefault) && seen.insert(key).inserted {
                    visible.append(binding)
                } else {
                    hidden.append(binding)
                }
            }
            keepsOwnDefaults = keepsOwnDefaults || current.keepsDeclaredDefaults
            container = current.parent
        }
        return (visible, hidden)
    }
}

extension ServiceContainer {
    /// Files the defaults of the declared `services` that have no registration here, as their
    /// first use would; returns the errors of the promised ones nobody registered: what the
    /// diagnostics' `verify(including:)` and `dependencyGraph(including:)` check first.
    package func fileDefaults(of services: [PartialKeyPath<Self>]) -> [ResolutionError] {
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
