/// Where a synchronous resolve starts — a container (a top-level resolve), a factory's resolver,
/// or a ``Lazy``'s first read — and the one place where the engine, which works on erased
/// instances, meets a call site, where the service's type and the arguments' are known
/// (``find(_:name:arguments:)``).
@usableFromInline
protocol Origin {
    /// The engine's side of ``find(_:name:arguments:)``: resolves the registration under `key`
    /// with the runtime arguments `values` gives (asked for only if an instance is to be made:
    /// a kept one needs none); `factory` calls a synchronous factory with the call site's types,
    /// and `instance` hands over what it made. `kept` takes the instance out of a `Kept<Service>`
    /// box that the box's reader may only borrow (then the result is `.made`).
    func resolve(
        _ key: ServiceKey,
        _ values: () -> ArgumentValues?,
        factory: MakeCall,
        instance: () -> Any,
        kept: (Borrowed<AnyObject>) -> Void
    ) throws(ResolutionError) -> Found

    /// Resolves `Service`, registered nowhere: `T?`, ``Lazy``, ``Provider``, or an error naming
    /// what is registered.
    func unregistered<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service
}

extension Origin {
    /// The instance of `Service` under `name` with `arguments` from here, or `nil` if nothing is
    /// registered under that key: the typed call site. It calls a synchronous factory with the
    /// call site's argument types, and casts what the engine found.
    @inlinable
    func find<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service? {
        try find(
            Service.self, key: ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self),
            arguments: repeat each arguments)
    }

    /// ``find(_:name:arguments:)`` of the registration under `key`.
    @inlinable
    func find<Service, each Argument>(
        _: Service.Type,
        key: ServiceKey,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service? {
        var made: Service?
        let found = try resolve(
            key, { ArgumentValues.of(repeat each arguments) },
            factory: { binding, resolution in
                let instance = try unsafeDowncast(binding.syncBox, to: FactoryBox<Service, repeat each Argument>.self)(
                    resolution, repeat each arguments)
                made = instance
                return ObjectIdentifier(type(of: instance))
            },
            instance: { made.unsafelyUnwrapped },
            kept: { box in made = box.with { unsafeDowncast($0, to: Kept<Service>.self).instance } })
        switch consume found {
        case .made: return made.take().unsafelyUnwrapped
        case .instance(let instance): return Found.cast(instance, to: Service.self)
        case .unregistered: return nil
        case .expired:
            throw .expired(Service.self, name: key.isDeclared ? nil : key.name, arguments: (repeat each Argument).self)
        }
    }

    /// The instance of `Service` under `name` with `arguments` from here.
    @inlinable
    func resolveService<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        if let found = try find(Service.self, name: name, arguments: repeat each arguments) { return found }
        return try unregistered(Service.self, name: name, arguments: repeat each arguments)
    }
}

/// `container.resolve`: a top-level resolve, nested in the one whose factory runs on this thread
/// if one does.
extension Container: Origin {
    @usableFromInline
    func resolve(
        _ key: ServiceKey,
        _ values: () -> ArgumentValues?,
        factory: MakeCall,
        instance: () -> Any,
        kept: (Borrowed<AnyObject>) -> Void
    ) throws(ResolutionError) -> Found {
        // The first look: one lookup and one read of the entry. A cached singleton ends here,
        // while nothing runs that may observe it (no thread-local is read): its instance is taken
        // out of the box the entry's snapshot holds, which it borrows.
        if !isTraced, !Activity.now.observedResolves, let entry = registry.borrowedEntry(for: key) {
            guard let binding = entry.with({ $0.bindingUnlessKept(else: kept) }) else { return .made }
            if binding.isStandIn { return .unregistered }
            return try ResolvingThread.with { thread throws(ResolutionError) in
                try thread.stack.resolveRead(
                    key, entry, binding, values, from: self, on: thread, factory: factory, instance: instance,
                    kept: kept)
            }
        }
        return try ResolvingThread.with { thread throws(ResolutionError) in
            try thread.stack.resolveTop(
                key, values, from: self, on: thread, factory: factory, instance: instance, kept: kept)
        }
    }

    @usableFromInline
    func unregistered<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        let stack = ResolvingThread.current.stack
        return try stack.topLevel(self, describing: "\(Service.self)") { t throws(ResolutionError) in
            try stack.unregistered(Service.self, name: name, arguments: repeat each arguments, from: self, at: t, -1)
        }
    }
}

/// A factory's resolver.
extension Resolution: Origin {
    @usableFromInline
    func resolve(
        _ key: ServiceKey,
        _ values: () -> ArgumentValues?,
        factory: MakeCall,
        instance: () -> Any,
        kept: (Borrowed<AnyObject>) -> Void
    ) throws(ResolutionError) -> Found {
        try ResolvingThread.with { thread throws(ResolutionError) in
            try thread.stack.resolve(
                key, values, for: self, on: thread, factory: factory, instance: instance, kept: kept)
        }
    }

    @usableFromInline
    func unregistered<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        let stack = ResolvingThread.current.stack
        guard let (t, f, lookup) = stack.position(of: self) else {
            throw .expired(Service.self, name: name, arguments: (repeat each Argument).self)
        }
        return try stack.unregistered(
            Service.self, name: name, arguments: repeat each arguments, from: lookup.object, at: t, f)
    }
}

/// The first read of a ``Lazy``: its own registration, filed in no container and kept here,
/// resolved from `container` in the graph the `Lazy` was made in.
extension LazyStorage: Origin {
    func resolve(
        _: ServiceKey,
        _: () -> ArgumentValues?,
        factory: MakeCall,
        instance: () -> Any,
        kept _: (Borrowed<AnyObject>) -> Void
    ) throws(ResolutionError) -> Found {
        guard let container else { return .expired }
        return try ResolvingThread.with { thread throws(ResolutionError) in
            try thread.stack.topLevel(container, inheriting: graph, describing: binding.step.service) {
                t throws(ResolutionError) in
                try thread.stack.makeOutOfLine(
                    binding, keptIn: self, by: container, from: container, at: t, -1, nil, factory, instance, on: thread
                )
            }
        }
    }

    func unregistered<Unregistered, each Argument>(
        _: Unregistered.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Unregistered {
        preconditionFailure("a Lazy's own registration is always there")
    }
}

extension ResolveStack {
    /// `container.resolve` of `binding`, read from `entry`, the container's own entry for `key`,
    /// with `values`: a top-level resolve.
    fileprivate func resolveRead(
        _ key: ServiceKey,
        _ entry: Borrowed<RegistryEntry>,
        _ binding: Binding,
        _ values: () -> ArgumentValues?,
        from container: Container,
        on thread: ResolvingThread,
        factory: MakeCall,
        instance: () -> Any,
        kept: (Borrowed<AnyObject>) -> Void
    ) throws(ResolutionError) -> Found {
        guard !isObserving else {
            return try resolveTop(
                key, values, from: container, on: thread, factory: factory, instance: instance, kept: kept)
        }
        return try resolveTop(
            key, binding, readFrom: entry, by: nil, values, from: container, on: thread, factory: factory,
            instance: instance)
    }

    /// `container.resolve` of the registration under `key` with `values`: a top-level resolve.
    fileprivate func resolveTop(
        _ key: ServiceKey,
        _ values: () -> ArgumentValues?,
        from container: Container,
        on thread: ResolvingThread,
        factory: MakeCall,
        instance: () -> Any,
        kept: (Borrowed<AnyObject>) -> Void
    ) throws(ResolutionError) -> Found {
        // The first look: one lookup and one read of the entry. A cached singleton ends here.
        if !container.isTraced, !isObserving, let (entry, parent) = container.entryAndParent(for: key) {
            guard let binding = entry.with({ $0.bindingUnlessKept(else: kept) }) else { return .made }
            if binding.isStandIn { return .unregistered }
            return try resolveTop(
                key, binding, readFrom: entry, by: parent, values, from: container, on: thread, factory: factory,
                instance: instance)
        }
        return try resolveTopInFull(
            key, values, from: container, on: thread, factory: factory, instance: instance, kept: kept)
    }

    /// `container.resolve` of `binding`, read from `entry` (registered in `parent`, or in
    /// `container` if that is `nil`), which keeps no instance for it, with `values`: a top-level
    /// resolve. Emitted once for the first look's two ways here (``resolveRead(_:_:_:_:from:on:factory:instance:kept:)``
    /// and ``resolveTop(_:_:from:on:factory:instance:kept:)``): inlined into both, it was
    /// two copies of about 14 KB of machine code.
    @inline(never)
    private func resolveTop(
        _ key: ServiceKey,
        _ binding: Binding,
        readFrom entry: Borrowed<RegistryEntry>,
        by parent: Container?,
        _ values: () -> ArgumentValues?,
        from container: Container,
        on thread: ResolvingThread,
        factory: MakeCall,
        instance: () -> Any
    ) throws(ResolutionError) -> Found {
        try ArgumentValues.withPointer(for: key, values) { values throws(ResolutionError) in
            if binding.isPlain { return try makeTop(binding, from: container, values, on: thread, factory, instance) }
            return try topLevel(container, makesOne: true, describing: binding.step.service) {
                t throws(ResolutionError) in
                try resolve(
                    binding, keptIn: entry.object, by: parent, from: container, at: t, -1, values, factory, instance,
                    on: thread)
            }
        }
    }

    /// ``resolveTop(_:_:from:on:factory:instance:kept:)`` of a service its container does not
    /// register itself, or traced, or while a dry run observes: out of line, so that the first
    /// look's way stays small.
    @inline(never)
    private func resolveTopInFull(
        _ key: ServiceKey,
        _ values: () -> ArgumentValues?,
        from container: Container,
        on thread: ResolvingThread,
        factory: MakeCall,
        instance: () -> Any,
        kept: (Borrowed<AnyObject>) -> Void
    ) throws(ResolutionError) -> Found {
        let service = { container.lookUp(key)?.0.read().binding.step.service ?? "?" }
        return try ArgumentValues.withPointer(for: key, values) { values throws(ResolutionError) in
            try topLevel(container, makesOne: true, describing: service()) { t throws(ResolutionError) in
                try resolve(
                    key, values, from: container, at: t, -1, on: thread, factory: factory, instance: instance,
                    kept: kept)
            }
        }
    }

    /// Runs `body` as a top-level resolve from `container` (``begin(_:nested:makesOne:findings:inheriting:)``),
    /// then finishes it (completions, publication), or undoes it if anything throws.
    func topLevel<Result>(
        _ container: Container,
        nested: Bool = true,
        makesOne: Bool = false,
        findings: DryRunFindings? = nil,
        inheriting graph: GraphRecord? = nil,
        describing service: @autoclosure () -> String,
        _ body: (Int) throws(ResolutionError) -> Result
    ) throws(ResolutionError) -> Result {
        let t = begin(container, nested: nested, makesOne: makesOne, findings: findings, inheriting: graph)
        do {
            let result = try body(t)
            try finish(t, describing: service())
            return result
        } catch {
            fail(t)
            throw error
        }
    }

    /// Resolves the registration under `key` with `values` for `resolution`, at its position.
    fileprivate func resolve(
        _ key: ServiceKey,
        _ values: () -> ArgumentValues?,
        for resolution: Resolution,
        on thread: ResolvingThread,
        factory: MakeCall,
        instance: () -> Any,
        kept: (Borrowed<AnyObject>) -> Void
    ) throws(ResolutionError) -> Found {
        guard let (t, f, lookup) = position(of: resolution) else { return .expired }
        return try lookup.with { lookup throws(ResolutionError) in
            try ArgumentValues.withPointer(for: key, values) { values throws(ResolutionError) in
                try resolve(
                    key, values, from: lookup, at: t, f, on: thread, factory: factory, instance: instance, kept: kept)
            }
        }
    }

    /// Where `resolution` stands — its top, its frame (`-1` at the top) and where it looks up —
    /// if it is live on this stack: not if its resolve has ended, or it belongs to another thread.
    /// The resolver of a frame that has ended resolves from the top of that frame's resolve
    /// (from the frame's container): the frame is no longer on any path.
    func position(of resolution: Resolution) -> (t: Int, f: Int, lookup: Borrowed<Container>)? {
        let p = resolution.position
        if p >= 0 { return frame(p, ifLive: resolution.serial) }
        if isLive(top: -1 - p, resolution.serial) { return (-1 - p, -1, borrowedContainer(of: -1 - p)) }
        return nil
    }
}

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
            guard lookup.provides(optional.wrapped, name: name, arguments: argumentTypes) else {
                // For a dry run: what only a child registers, `T` or `T?`, a parent's `T?` gets as `nil`.
                heavy(of: t)?.findings?.ignoredChild(
                    ServiceKey(erased: optional.wrapped, name: name, arguments: argumentTypes),
                    ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self),
                    from: lookup, at: frame(at: t, f))
                return optional.nothing as! Service
            }
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
