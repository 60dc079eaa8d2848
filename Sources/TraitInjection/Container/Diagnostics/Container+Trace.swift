import Synchronization

extension Container {
    /// A closure that sees every resolve started on this container, each service before it is
    /// made, indented by its depth: to find out what a resolve does, and why it is slow or fails.
    ///
    /// ```swift
    /// container.resolutionTrace = { event in print(event) }
    /// _ = try container.resolve(Person.self)
    /// // Person [graph] new (App.swift:14)
    /// //   Animal [container] cached (App.swift:12)
    /// container.resolutionTrace = nil
    /// ```
    ///
    /// It covers the resolves started on this container, through ``resolve(_:name:arguments:)``,
    /// ``resolveAsync(_:name:arguments:)``, `verify()` and the property wrappers, with everything
    /// they resolve, also from parent containers. A child container has a trace of its own. The
    /// closure is called on the resolving thread, with no lock held; the resolves it makes
    /// itself, from any container, are not traced.
    ///
    /// Setting the `TRAITINJECTION_TRACE` environment variable (to anything but `0`) prints the
    /// trace of every container without one of its own to standard error. When neither is set,
    /// a resolve pays for one relaxed atomic load and one branch.
    public var resolutionTrace: (@Sendable (ResolutionTraceEvent) -> Void)? {
        get { tracer.withLock { $0?.emit } }
        set {
            let tracer = newValue.map(ResolutionTracer.init)
            // The flag under the lock too, so that two setters leave it matching the last tracer.
            let replaced = self.tracer.withLock { current in
                defer { current = tracer }
                isTracing.store(tracer != nil || ResolutionTracer.environment != nil, ordering: .relaxed)
                return current
            }
            // The old closure, and what it captured, go here, with no lock held.
            withExtendedLifetime(replaced) {}
        }
    }

    /// Whether resolves started here are traced: one relaxed load.
    var isTraced: Bool { isTracing.load(ordering: .relaxed) }

    /// Where the resolves started here are traced, if they are.
    var currentTracer: ResolutionTracer? {
        guard isTraced else { return nil }
        return tracer.withLock { $0 } ?? ResolutionTracer.environment
    }
}
