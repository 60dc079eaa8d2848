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
    /// `path`. A dry run (``Container/verify()``) also checks that a synchronous resolve of
    /// `Deferred` can work, without resolving it.
    static func make(
        from container: Container,
        name: String?,
        isDryRun: Bool,
        path: @autoclosure () -> [ResolutionError.Step]
    ) throws(ResolutionError) -> Self {
        if isDryRun, let problem = laterResolveProblem(from: container, name: name) {
            let step = ResolutionError.Step(
                service: ServiceDescription(Self.self, name: name, arguments: Void.self).description,
                location: deferral
            )
            throw ResolutionError(
                kind: problem.kind,
                service: problem.service,
                path: path() + [step],
                availableRegistrations: problem.kind == .notRegistered
                    ? container.registrations(of: problem.serviceType) : []
            )
        }
        return Self(resolvingFrom: container, name: name)
    }

    /// Why its later resolves of `Deferred` would fail.
    static func laterResolveProblem(from container: Container, name: String?) -> LaterResolveProblem? {
        LaterResolveProblem.of(Deferred.self, name: name, from: container)
    }
}

/// Why a later synchronous resolve of a service would fail, found without resolving it.
struct LaterResolveProblem {
    let kind: ResolutionError.Kind
    /// The service, with its name.
    let service: String
    let serviceType: ObjectIdentifier

    /// Why a synchronous resolve of `Service` under `name` from `container` would fail: it is not
    /// registered, or only an async resolve can make it; looked for through `Optional`, ``Lazy``
    /// and ``Provider`` as a resolve does. `nil` if it would not.
    static func of<Service>(_: Service.Type, name: String?, from container: Container) -> LaterResolveProblem? {
        let description = ServiceDescription(Service.self, name: name, arguments: Void.self).description
        if let registration = container.retainedRegistration(
            for: ServiceKey(Service.self, name: name, arguments: Void.self))
        {
            guard registration.needsAsyncResolve else { return nil }
            return LaterResolveProblem(
                kind: .needsAsyncResolve, service: description, serviceType: ObjectIdentifier(Service.self))
        }
        if let deferred = Service.self as? any DeferredService.Type {
            return deferred.laterResolveProblem(from: container, name: name)
        }
        if let optional = Service.self as? any OptionalService.Type {
            return optional.laterResolveProblem(from: container, name: name)
        }
        return LaterResolveProblem(
            kind: .notRegistered, service: description, serviceType: ObjectIdentifier(Service.self))
    }
}
