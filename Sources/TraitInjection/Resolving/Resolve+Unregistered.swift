// What a resolve does for a service registered nowhere in the container's chain: `T?` resolves
// `T`, or is `nil` if nothing provides `T`; a ``Lazy`` or ``Provider`` of a provided service is
// made; anything else is an error naming what is registered for the type.

extension ResolveStack {
    @usableFromInline
    func unregistered<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        from lookup: Container,
        at t: Int,
        _ f: Int
    ) throws(ResolutionError) -> Service {
        let argumentTypes = ServiceKey.identify((repeat each Argument).self)
        if let optional = Service.self as? any OptionalService.Type {
            let key = ServiceKey(erased: optional.wrapped, name: name, arguments: argumentTypes)
            guard
                lookup.provides(optional.wrapped, name: name, arguments: argumentTypes)
                    || childOnly(key, from: lookup, at: t, f) != nil
            else { return optional.nothing as! Service }
            let resolution = f >= 0 ? Resolution(at: f, in: self) : Resolution(top: t, in: self)
            return try optional.resolveWrapped(with: resolution, name: name, arguments: repeat each arguments)
                as! Service
        }
        if argumentTypes == ObjectIdentifier(Void.self), let deferred = Service.self as? any DeferredService.Type {
            return try deferred.make(from: lookup, name: name, in: self, at: t, f) as! Service
        }
        throw ResolutionError(
            kind: .notRegistered,
            service: ServiceDescription(Service.self, name: name, arguments: (repeat each Argument).self).description,
            path: steps(at: t, f),
            availableRegistrations: lookup.registrations(of: ObjectIdentifier(Service.self))
        )
    }
}

extension Resolve {
    /// ``ResolveStack/unregistered(_:name:arguments:from:at:_:)`` in an async resolve, at `frame`:
    /// a `T?` resolves `T` asynchronously.
    func unregisteredAsync<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        from lookup: Container,
        at frame: Frame?
    ) async throws(ResolutionError) -> Service {
        let argumentTypes = ServiceKey.identify((repeat each Argument).self)
        if let optional = Service.self as? any OptionalService.Type,
            lookup.provides(optional.wrapped, name: name, arguments: argumentTypes)
                || childOnly(
                    ServiceKey(erased: optional.wrapped, name: name, arguments: argumentTypes), from: lookup, at: frame)
                    != nil
        {
            let resolution = AsyncResolution(self, frame, lookup)
            return try await optional.resolveWrapped(in: resolution, name: name, arguments: repeat each arguments)
                as! Service
        }
        let values = (repeat each arguments)
        return try await synchronously(at: frame, from: lookup) { stack, t throws(ResolutionError) in
            try stack.unregistered(Service.self, name: name, arguments: repeat each values, from: lookup, at: t, -1)
        }
    }
}
