/// Why a service could not be resolved, with the path that led there and how to fix it.
///
/// Its ``description`` is meant to be read by the developer who has to fix the registration:
///
/// ```
/// Circular dependency: Parent (App.swift:12) → Child (App.swift:15) → Parent
/// Break the cycle: inject one side in `.initCompleted { resolver, service in … }` instead of
/// its initializer, and keep the services in the `.graph` scope.
/// ```
public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    /// One service on the resolution path, with where it was registered.
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        /// The service, with its name and argument types if any: `Animal (name: "dog")`.
        public let service: String
        /// Where it was registered, as `File.swift:line`.
        public let location: String

        public var description: String { "\(service) (\(location))" }
    }

    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// Nothing is registered under the requested type, name and argument types.
        case notRegistered
        /// A service depends on itself through initializers.
        case cycle
        /// A factory or `initCompleted` closure threw.
        case factoryFailed
    }

    /// What went wrong.
    public let kind: Kind
    /// The service asked for, with its name and argument types: `Animal (name: "dog")`.
    public let service: String
    /// The services being resolved when it happened, outermost first.
    public let path: [Step]
    /// For ``Kind/notRegistered``: the registrations that do exist for the requested type.
    public let availableRegistrations: [String]
    /// For ``Kind/factoryFailed``: the error the factory threw.
    public let underlyingError: String?

    public var description: String {
        let trail = path.map(\.description).joined(separator: " → ")
        switch kind {
        case .notRegistered:
            var text = "\(service) is not registered"
            if !trail.isEmpty { text += ", needed by \(trail)" }
            text += "."
            if availableRegistrations.isEmpty {
                text +=
                    " No registration exists for this type: register it with `container.register(…) { resolver in … }`."
            } else {
                text += " Registered for this type: \(availableRegistrations.joined(separator: "; "))."
                text += " Resolve one of these, or register the missing name or argument types."
            }
            return text
        case .cycle:
            return """
                Circular dependency: \(trail) → \(service). Break the cycle: inject one side in \
                `.initCompleted { resolver, service in … }` instead of its initializer, and keep the \
                services in the `.graph` scope.
                """
        case .factoryFailed:
            let underlying = underlyingError ?? "an error"
            return "The factory of \(trail) threw: \(underlying)\(underlying.hasSuffix(".") ? "" : ".")"
        }
    }
}

/// Every problem ``Container/verify()`` found, at once.
public struct VerificationReport: Error, Sendable, CustomStringConvertible {
    /// The resolution errors, one per registration that failed.
    public let problems: [ResolutionError]
    /// Registrations that take runtime arguments, which a dry run cannot supply.
    public let skipped: [String]

    public var description: String {
        var lines = ["\(problems.count) registration(s) cannot be resolved:"]
        lines += problems.map { "- \($0.description)" }
        if !skipped.isEmpty {
            lines.append("Not checked (they take runtime arguments): \(skipped.joined(separator: "; ")).")
        }
        return lines.joined(separator: "\n")
    }
}
