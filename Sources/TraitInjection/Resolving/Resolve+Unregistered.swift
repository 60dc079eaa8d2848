// What a resolve does for a service registered nowhere in the container's chain: `T?` resolves
// `T`; a ``Lazy`` or ``Provider`` of a service is made; anything else is an error naming what is
// registered for the type.

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
            let resolution = Resolution(self, frame, lookup)
            return try optional.resolveWrapped(with: resolution, name: name, arguments: repeat each arguments)
                as! Service
        }
        if (repeat each Argument).self == Void.self, let deferred = Service.self as? any DeferredService.Type {
            return try deferred.make(from: lookup, name: name, isDryRun: isDryRun, path: frame.steps) as! Service
        }
        throw ResolutionError(
            kind: .notRegistered,
            service: ServiceDescription(Service.self, name: name, arguments: (repeat each Argument).self).description,
            path: frame.steps,
            availableRegistrations: lookup.registrations(of: ObjectIdentifier(Service.self))
        )
    }

    func unregisteredAsync<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        from lookup: Container,
        at frame: Frame?
    ) async throws(ResolutionError) -> Service {
        guard let optional = Service.self as? any OptionalService.Type else {
            return try unregistered(Service.self, name: name, arguments: repeat each arguments, from: lookup, at: frame)
        }
        let resolution = AsyncResolution(self, frame, lookup)
        return try await optional.resolveWrapped(in: resolution, name: name, arguments: repeat each arguments)
            as! Service
    }
}
