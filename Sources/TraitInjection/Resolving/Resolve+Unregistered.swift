// What a resolve does for a service that is registered nowhere in the container's chain: `T?`
// resolves `T`; a ``Lazy`` or ``Provider`` of a service is made; a dry run goes on with a child's
// registration a parent's singleton needs; anything else is an error naming what exists.

extension Resolve {
    func resolveUnregistered<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        from lookup: Container,
        at frame: Frame?
    ) throws(ResolutionError) -> Service {
        if let optional = Service.self as? any OptionalService.Type {
            let resolution = Resolution(self, frame, lookup)
            return try optional.resolveWrapped(with: resolution, name: name, arguments: repeat each arguments) as! Service
        }
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        if let findings, let entry = findings.childOnly(key, from: lookup, at: frame) {
            // Reported as a lifetime problem; the dry run goes on with the child's registration.
            let binding = unsafeDowncast(entry.read().binding!, to: Binding<Service>.self)
            findings.check(binding, ancestors: frame)
            let container = findings.container
            return try make(binding, keptIn: entry, by: container, from: container, at: frame, arguments: repeat each arguments)
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
}
