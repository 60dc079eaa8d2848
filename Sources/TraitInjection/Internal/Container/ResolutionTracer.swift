#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where a container's resolution trace goes: ``Container/resolutionTrace``'s closure, or
/// standard error for the `TRAITINJECTION_TRACE` environment variable.
@usableFromInline
final class ResolutionTracer: Sendable {
    let emit: @Sendable (ResolutionTraceEvent) -> Void

    init(_ emit: @escaping @Sendable (ResolutionTraceEvent) -> Void) {
        self.emit = emit
    }

    /// Standard error's tracer, if `TRAITINJECTION_TRACE` is set (to anything but `0`): read once.
    static let environment: ResolutionTracer? = {
        guard let value = getenv("TRAITINJECTION_TRACE"), String(cString: value) != "0" else { return nil }
        return ResolutionTracer { event in
            var line = "\(event)\n"
            line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        }
    }()

    /// Whether a trace closure runs here: the resolves it makes itself, from any container, sync
    /// or async, are not traced, or each would be reported to it in turn, without end.
    @TaskLocal static var isEmitting = false

    /// Reports a resolve of `registration` at `depth`, unless a trace closure made it.
    func record(_ registration: any AnyRegistration, depth: Int, _ outcome: ResolutionTraceEvent.Outcome) {
        guard !Self.isEmitting else { return }
        let step = registration.step
        let event = ResolutionTraceEvent(
            service: step.service,
            location: step.location,
            scope: "\(registration.scope)",
            depth: depth,
            outcome: outcome
        )
        Self.$isEmitting.withValue(true) { emit(event) }
    }
}
