/// ``Lazy`` and ``Provider``: resolvable for any registered service without a registration of
/// their own, as `T?` is for `T`.
protocol DeferredService {
    /// The service it resolves later.
    associatedtype Deferred

    /// When it resolves, in the place of a registration's location in errors.
    static var deferral: String { get }

    init(resolvingFrom container: Container, name: String?)
}

extension Lazy: DeferredService {
    typealias Deferred = Service
    static var deferral: String { "resolved on first access" }
}

extension Provider: DeferredService {
    typealias Deferred = Service
    static var deferral: String { "resolved on each call" }
}

extension DeferredService {
    /// One resolving `Deferred` under `name` from `container`, made for a resolve whose path is
    /// `path`. A dry run (``Container/verify()``) also checks that `Deferred` is registered.
    static func make(
        from container: Container,
        name: String?,
        isDryRun: Bool,
        path: @autoclosure () -> [ResolutionError.Step]
    ) throws(ResolutionError) -> Self {
        if isDryRun,
            container.retainedRegistration(for: ServiceKey(Deferred.self, name: name, arguments: Void.self)) == nil
        {
            throw ResolutionError(
                kind: .notRegistered,
                service: ServiceDescription(Deferred.self, name: name, arguments: Void.self).description,
                path: path() + [
                    ResolutionError.Step(
                        service: ServiceDescription(Self.self, name: name, arguments: Void.self).description,
                        location: deferral)
                ],
                availableRegistrations: container.registrations(of: ObjectIdentifier(Deferred.self))
            )
        }
        return Self(resolvingFrom: container, name: name)
    }
}
