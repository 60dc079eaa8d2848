// What a resolve does for a service registered nowhere in the container's chain: `T?` resolves
// `T`, or is `nil` if nothing provides `T`; a ``Lazy`` or ``Provider`` of a provided service is
// made; anything else is an error naming what is registered for the type.

extension Resolve {
    @usableFromInline
    func unregistered<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        from lookup: Container,
        at frame: Frame?
    ) throws(ResolutionError) -> Service {
        if let optional = Service.self as? any OptionalService.Type {
            guard
                provides(optional.wrapped, name: name, arguments: (repeat each Argument).self, from: lookup, at: frame)
            else { return optional.nothing as! Service }
            let resolution = Resolution(self, frame, lookup)
            return try optional.resolveWrapped(with: resolution, name: name, arguments: repeat each arguments)
                as! Service
        }
        if (repeat each Argument).self == Void.self, let deferred = Service.self as? any DeferredService.Type {
            return try deferred.make(from: lookup, name: name, by: self, at: frame) as! Service
        }
        throw ResolutionError(
            kind: .notRegistered,
            service: ServiceDescription(Service.self, name: name, arguments: (repeat each Argument).self).description,
            path: frame.steps,
            availableRegistrations: lookup.registrations(of: ObjectIdentifier(Service.self))
        )
    }

    /// Whether a resolve of `service` under `name` with `arguments` from `lookup` has something
    /// to make: a registration in the chain (in a dry run, also one only the checked child has),
    /// an `Optional`, or a ``Lazy`` or ``Provider`` of a service it provides. A `T?` of a service
    /// it does not provide is `nil`.
    func provides(
        _ service: any Any.Type, name: String?, arguments: any Any.Type, from lookup: Container, at frame: Frame?
    )
        -> Bool
    {
        let key = ServiceKey(erased: service, name: name, arguments: arguments)
        return lookup.provides(service, name: name, arguments: arguments)
            || childOnly(key, from: lookup, at: frame) != nil
    }

    func unregisteredAsync<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        from lookup: Container,
        at frame: Frame?
    ) async throws(ResolutionError) -> Service {
        guard let optional = Service.self as? any OptionalService.Type,
            provides(optional.wrapped, name: name, arguments: (repeat each Argument).self, from: lookup, at: frame)
        else {
            return try unregistered(Service.self, name: name, arguments: repeat each arguments, from: lookup, at: frame)
        }
        let resolution = AsyncResolution(self, frame, lookup)
        return try await optional.resolveWrapped(in: resolution, name: name, arguments: repeat each arguments)
            as! Service
    }
}
