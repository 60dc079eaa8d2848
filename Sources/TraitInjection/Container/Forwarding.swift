/// How a registration of `Service` with `Argument`s is reached under another type
/// (``Registration/implements(_:as:)``): a registration of that type, under the same name and
/// argument types, whose factory resolves `Service` and converts it.
///
/// The forwarding registration takes the scope of the one it reaches, so a shared instance is
/// kept under each type once it has been resolved under it, and it is made asynchronously or on
/// the main actor where that one is. Resetting, reinitializing or replacing the registration it
/// reaches drops what it keeps too (``Container``).
struct Forwarding<Service, each Argument>: Forwarder {
    let name: String?

    /// The key of the registration under `Forwarded`.
    func key<Forwarded>(_: Forwarded.Type) -> ServiceKey {
        ServiceKey(Forwarded.self, name: name, arguments: (repeat each Argument).self)
    }

    /// The registration under `Forwarded` that reaches `target`, the registration of `Service`.
    func binding<Forwarded>(
        _: Forwarded.Type,
        _ convert: @escaping @Sendable (Service) -> Forwarded,
        to target: Binding,
        forwarding targetKey: ServiceKey
    ) -> Binding {
        // A `.transient` synchronous registration has nothing to share with the one it reaches:
        // it calls that one's factory itself, with no resolve between, and completes what it
        // made as that one (before converting it).
        let callsFactory = target.scope == .transient && !target.needsAsyncResolve && !target.isMainActor
        let factory: Binding.Factory =
            if callsFactory {
                .sync(ForwardingFactory.calling(target, Service.self, convert, repeat (each Argument).self))
            } else if target.needsAsyncResolve {
                .async(ForwardingFactory.async(Service.self, name, targetKey, convert, repeat (each Argument).self))
            } else if target.isMainActor {
                .mainActor(
                    ForwardingFactory.sync(Service.self, name, targetKey, convert, repeat (each Argument).self),
                    hop: ForwardingFactory.hop(Service.self, name, targetKey, convert, repeat (each Argument).self))
            } else {
                .sync(ForwardingFactory.sync(Service.self, name, targetKey, convert, repeat (each Argument).self))
            }
        let location = "\(target.location) via \(target.description.service)"
        return Binding(
            Forwarded.self,
            description: ServiceDescription(Forwarded.self, name: name, arguments: (repeat each Argument).self),
            location: location,
            assembly: target.assembly,
            scope: target.scope,
            factory: factory,
            completions: [],
            reinitializeStrategy: target.reinitializeStrategy,
            autoInjects: false,
            forwarding: targetKey,
            isInstance: target.isInstance
        )
    }
}

/// ``Forwarding`` seen without its argument types, by the ``Registration`` it belongs to.
protocol Forwarder<Service>: Sendable {
    associatedtype Service
    func key<Forwarded>(_: Forwarded.Type) -> ServiceKey
    func binding<Forwarded>(
        _: Forwarded.Type,
        _ convert: @escaping @Sendable (Service) -> Forwarded,
        to target: Binding,
        forwarding targetKey: ServiceKey
    ) -> Binding
}

/// The factories of a forwarding registration: each resolves `Target` under `name` with the
/// arguments it is given, and converts it. (Generic functions with erased results, rather than
/// ``Forwarding``'s methods: Swift 6.3.1 fails to match a local function's parameter pack with the
/// one of a result type it is given, "pack expansion requires … the same shape".)
private enum ForwardingFactory {
    /// Calls the factory of `target`, `Target`'s registration, queues the completions of what it
    /// makes (its `initCompleted` closures and auto-injection, on that instance), and converts it.
    static func calling<Target, Forwarded, each Argument>(
        _ target: Binding,
        _: Target.Type,
        _ convert: @escaping @Sendable (Target) -> Forwarded,
        _: repeat (each Argument).Type
    ) -> any AnyObject & Sendable {
        let make = unsafeDowncast(target.syncBox, to: FactoryBox<Target, repeat each Argument>.self).make
        @Sendable func forward(_ r: Resolution, _ arguments: repeat each Argument) throws -> Forwarded {
            let service = try make(r, repeat each arguments)
            try r.complete(service, as: target)
            return convert(service)
        }
        return FactoryBox(forward)
    }

    /// Resolves the target under `name`, or a declared service's under `key` (which names no type).
    static func sync<Target, Forwarded, each Argument>(
        _: Target.Type,
        _ name: String?,
        _ key: ServiceKey,
        _ convert: @escaping @Sendable (Target) -> Forwarded,
        _: repeat (each Argument).Type
    ) -> any AnyObject & Sendable {
        let declared = key.isDeclared ? key : nil
        // Local functions: a closure literal cannot take a parameter pack.
        @Sendable func forward(_ r: Resolution, _ arguments: repeat each Argument) throws -> Forwarded {
            guard let declared else {
                return convert(try r.resolve(Target.self, name: name, arguments: repeat each arguments))
            }
            guard let found = try r.find(Target.self, key: declared, arguments: repeat each arguments) else {
                // Unregistered with it, since its resolve read it.
                return try r.unregistered(Forwarded.self, name: name, arguments: repeat each arguments)
            }
            return convert(found)
        }
        return FactoryBox(forward)
    }

    static func async<Target, Forwarded, each Argument>(
        _: Target.Type,
        _ name: String?,
        _ key: ServiceKey,
        _ convert: @escaping @Sendable (Target) -> Forwarded,
        _: repeat (each Argument).Type
    ) -> any AnyObject & Sendable {
        let declared = key.isDeclared ? key : nil
        @Sendable func forward(_ r: AsyncResolution, _ arguments: repeat each Argument) async throws -> Forwarded {
            guard let declared else {
                return convert(try await r.resolve(Target.self, name: name, arguments: repeat each arguments))
            }
            return convert(try await r.resolve(Target.self, key: declared, arguments: repeat each arguments))
        }
        return AsyncFactoryBox(forward)
    }

    /// The hop of a registration that forwards to a main-actor one: resolves the target, by its
    /// declared key if it is a declared service's (the type and name alone reach another
    /// registration, or none).
    static func hop<Target, Forwarded, each Argument>(
        _: Target.Type,
        _ name: String?,
        _ key: ServiceKey,
        _ convert: @escaping @Sendable (Target) -> Forwarded,
        _: repeat (each Argument).Type
    ) -> any AnyObject & Sendable {
        let declared = key.isDeclared ? key : nil
        @Sendable func forward(_ r: AsyncResolution, _ arguments: repeat each Argument)
            async throws(ResolutionError) -> Forwarded
        {
            guard let declared else {
                return convert(try await r.resolve(Target.self, name: name, arguments: repeat each arguments))
            }
            return convert(try await r.resolve(Target.self, key: declared, arguments: repeat each arguments))
        }
        return MainActorHop(forward)
    }
}
