/// One resolve seen by a container's resolution trace: set ``Container/resolutionTrace``, or the
/// `TRAITINJECTION_TRACE` environment variable to print the trace of every container without a
/// closure of its own to standard error.
///
/// ```swift
/// container.resolutionTrace = { event in print(event) }
/// _ = try container.resolve(Person.self)
/// // Person [graph] new (App.swift:14)
/// //   Animal [container] cached (App.swift:12)
/// ```
///
/// A resolve is reported before it runs, so the services it needs follow it, indented one level
/// deeper; a failed one is reported again when it fails.
public struct ResolutionTraceEvent: Sendable, CustomStringConvertible {
    /// What the resolve does.
    public enum Outcome: Sendable, Hashable {
        /// It makes a new instance.
        case created
        /// It hands out an instance kept by its scope.
        case cached
        /// It failed, with this kind of error.
        case failed(ResolutionError.Kind)
    }

    /// The service, with its name and argument types: `Animal (name: "dog")`.
    public let service: String
    /// Where it was registered, as `File.swift:12`.
    public let location: String
    /// Its scope: `transient`, `graph`, `container` or `weak`.
    public let scope: String
    /// How many services deep it is: 0 for what the app resolved.
    public let depth: Int
    /// What the resolve does.
    public let outcome: Outcome

    public var description: String {
        let outcome =
            switch outcome {
            case .created: "new"
            case .cached: "cached"
            case .failed(let kind): "failed (\(kind))"
            }
        return String(repeating: "  ", count: depth) + "\(service) [\(scope)] \(outcome) (\(location))"
    }
}
