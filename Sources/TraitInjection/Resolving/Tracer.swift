/// Where a container's resolution trace goes: ``Container/resolutionTrace``'s closure, or
/// standard error for the `TRAITINJECTION_TRACE` environment variable.
final class ResolutionTracer: Sendable {
    let emit: @Sendable (ResolutionTraceEvent) -> Void

    init(_ emit: @escaping @Sendable (ResolutionTraceEvent) -> Void) {
        self.emit = emit
    }

    /// Standard error's tracer, if `TRAITINJECTION_TRACE` is set (to anything but `0`): read once.
    static let environment: ResolutionTracer? = {
        guard let value = Platform.environment("TRAITINJECTION_TRACE"), value != "0" else { return nil }
        return ResolutionTracer { Platform.writeToStandardError("\($0)\n") }
    }()

    /// Whether a trace closure runs here: the resolves it makes itself, from any container, sync
    /// or async, are not traced, or each would be reported to it in turn, without end.
    @TaskLocal static var isEmitting = false

    /// Reports a resolve of `binding` at `depth`, unless a trace closure made it.
    func record(_ binding: Binding, depth: Int, _ outcome: ResolutionTraceEvent.Outcome) {
        guard !Self.isEmitting else { return }
        let step = binding.step
        let event = ResolutionTraceEvent(
            service: step.service, location: step.location, scope: "\(binding.scope)", depth: depth, outcome: outcome)
        Self.$isEmitting.withValue(true) { emit(event) }
    }
}

extension Resolve {
    /// Runs `body`, the resolve of `binding` at `frame` (whose instances are made from `lookup`),
    /// reporting it to the trace (before it runs, and again if it fails) and to a dry run's
    /// findings.
    func observe(
        _ binding: Binding,
        keptIn slot: any KeptSlot,
        from lookup: Container,
        at frame: Frame?,
        _ values: ArgumentValues? = nil,
        making body: () throws(ResolutionError) -> Found
    ) throws(ResolutionError) -> Found {
        guard isObserved else { return try body() }
        findings?.check(binding, ancestors: frame)
        guard let tracer else { return try body() }
        let depth = frame?.depth ?? 0
        tracer.record(binding, depth: depth, isCached(binding, keptIn: slot, from: lookup, values))
        do {
            return try body()
        } catch {
            tracer.record(binding, depth: depth, .failed(error.kind))
            throw error
        }
    }

    /// The same as ``observe(_:keptIn:from:at:_:making:)``, for an async resolve.
    func observe(
        _ binding: Binding,
        keptIn slot: any KeptSlot,
        from lookup: Container,
        at frame: Frame?,
        _ values: ArgumentValues? = nil,
        making body: () async throws(ResolutionError) -> Found
    ) async throws(ResolutionError) -> Found {
        guard isObserved else { return try await body() }
        findings?.check(binding, ancestors: frame)
        guard let tracer else { return try await body() }
        let depth = frame?.depth ?? 0
        tracer.record(binding, depth: depth, isCached(binding, keptIn: slot, from: lookup, values))
        do {
            return try await body()
        } catch {
            tracer.record(binding, depth: depth, .failed(error.kind))
            throw error
        }
    }

    /// Whether the scope of `binding` has an instance for this resolve already.
    private func isCached(
        _ binding: Binding,
        keptIn slot: any KeptSlot,
        from lookup: Container,
        _ values: ArgumentValues?
    ) -> ResolutionTraceEvent.Outcome {
        let isCached =
            if binding.isPerResolve(inDryRun: isDryRun) {
                graphInstance(binding, from: lookup, values) != nil
            } else {
                binding.isShared && (slot.keptInstance != nil || Waits.shared.isMade(slot, forTreeOf: self))
            }
        return isCached ? .cached : .created
    }
}
