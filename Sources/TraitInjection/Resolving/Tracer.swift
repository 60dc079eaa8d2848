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
    /// Runs `body`, the resolve of `binding` at `frame`, reporting it to a dry run's findings and
    /// to the trace (before it runs, as cached or created, and again if it fails).
    func observe(
        _ binding: Binding,
        at frame: Frame?,
        isCached: @autoclosure () -> Bool,
        making body: () throws(ResolutionError) -> Found
    ) throws(ResolutionError) -> Found {
        let depth = report(binding, at: frame, isCached: isCached())
        do {
            return try body()
        } catch {
            if let depth { tracer?.record(binding, depth: depth, .failed(error.kind)) }
            throw error
        }
    }

    /// ``observe(_:at:isCached:making:)``, for an async resolve.
    func observe(
        _ binding: Binding,
        at frame: Frame?,
        isCached: @autoclosure () -> Bool,
        making body: () async throws(ResolutionError) -> Found
    ) async throws(ResolutionError) -> Found {
        let depth = report(binding, at: frame, isCached: isCached())
        do {
            return try await body()
        } catch {
            if let depth { tracer?.record(binding, depth: depth, .failed(error.kind)) }
            throw error
        }
    }

    /// Reports the resolve of `binding` at `frame` as it starts; the depth it traced it at, if it
    /// did.
    private func report(_ binding: Binding, at frame: Frame?, isCached: @autoclosure () -> Bool) -> Int? {
        guard isObserved else { return nil }
        findings?.check(binding, ancestors: frame)
        guard let tracer else { return nil }
        let depth = frame?.depth ?? 0
        tracer.record(binding, depth: depth, isCached() ? .cached : .created)
        return depth
    }
}
