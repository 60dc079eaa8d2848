/// A longer-lived instance that keeps a shorter-lived one, found by `verify()`.
///
/// The resolve itself works, which is why no test of it fails: the problem shows later, when the
/// shorter-lived instance should have gone and has not.
///
/// ```swift
/// container.register(Session.self) { _ in Session() }.inScope(.weak)
/// container.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
/// try container.verify()
/// // Cache (App.swift:2) is a `.container` singleton that keeps Session (App.swift:1), which is
/// // `.weak`: …
/// ```
public struct LifetimeProblem: Sendable, Hashable, CustomStringConvertible {
    /// Which rule the two registrations break.
    public enum Rule: Sendable, Hashable {
        /// A ``Scope/container`` instance keeps a ``Scope/weak`` one, which then lives as long as
        /// the container.
        case singletonKeepsWeak
        /// A ``Scope/container`` instance keeps one of a scope an app defines and resets (a
        /// ``SharedScope`` such as a session's): after ``Container/resetScopedInstances(in:)``
        /// the rest of the app gets a new one, and the singleton still holds the old one.
        case singletonKeepsAppScoped
        /// An instance kept across ``Container/reinitialize()`` (``ReinitializeStrategy/reUse``)
        /// keeps one that `reinitialize()` creates again (``ReinitializeStrategy/reCreate``): it
        /// holds the old one afterwards.
        case reUseKeepsReCreate
        /// An instance kept by a parent container needs a service that only a child registers;
        /// it is built from its own container's registrations, so its resolve fails.
        case parentNeedsChild
        /// An instance kept by a parent container resolves an `Optional` of a service that only
        /// a child registers; it is built from its own container's registrations, so it gets
        /// `nil`.
        case parentIgnoresChild
    }

    /// The rule broken.
    public let rule: Rule
    /// The name of the dependency's scope, for the description.
    package let dependencyScope: String
    /// The longer-lived registration, the one that keeps the other.
    public let holder: ResolutionError.Step
    /// The registration it keeps, or for ``Rule/parentNeedsChild`` and
    /// ``Rule/parentIgnoresChild`` the child's registration it does not see.
    public let dependency: ResolutionError.Step

    public var description: String {
        switch rule {
        case .singletonKeepsWeak:
            return """
                \(holder) is a `.container` singleton that keeps \(dependency), which is \
                `.\(dependencyScope)` (held weakly): \
                the singleton holds it for as long as the container lives, so it is never \
                released. Make \(dependency.service) `.container`, make \(holder.service) \
                shorter-lived, or take a `Provider<\(dependency.service)>` and resolve it when \
                needed.
                """
        case .singletonKeepsAppScoped:
            return """
                \(holder) is a `.container` singleton that keeps \(dependency), which is in the \
                `\(dependencyScope)` scope: when that scope is reset, the rest of the app gets a new \
                \(dependency.service) and the singleton still holds the old one. Put \
                \(holder.service) in the `\(dependencyScope)` scope too, or take a \
                `Provider<\(dependency.service)>` and resolve it when needed.
                """
        case .reUseKeepsReCreate:
            return """
                \(holder) is kept across `reinitialize()` (`.reUse`) but keeps \(dependency), \
                which `reinitialize()` creates again (`.reCreate`): afterwards \(holder.service) \
                still holds the old one. Mark both the same way, or take a \
                `Provider<\(dependency.service)>` and resolve it when needed.
                """
        case .parentNeedsChild:
            return """
                \(holder) is kept by a parent container and built from that container's \
                registrations, but it needs \(dependency), which only a child container \
                registers: resolving it fails. Register \(dependency.service) in the parent, or \
                \(holder.service) in the child.
                """
        case .parentIgnoresChild:
            // The child's registration is of `T`, or of the `Optional` type itself.
            let optional = dependency.service.hasPrefix("Optional<") ? dependency.service : "\(dependency.service)?"
            return """
                \(holder) is kept by a parent container and built from that container's \
                registrations: it resolves `\(optional)` and gets `nil`, though a child \
                container registers \(dependency). Register \(dependency.service) in the parent, \
                or \(holder.service) in the child, if it should have it.
                """
        }
    }
}
