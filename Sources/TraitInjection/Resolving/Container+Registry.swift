// A container's registrations as the engine sees them: filing a binding (with the registrations
// forwarding to it), dropping kept instances, and looking keys up through the parent chain.

extension Container {
    /// Drops the instances kept for the registrations `matching` says; an instance being made for
    /// one is not kept. They go here, with no lock held.
    func reset(_ matching: (Binding) -> Bool) {
        let entries = registry.entries.map { _, entry in (binding: entry.read().binding, entry: entry) }
        // Registrations forwarding to others last (``resetScopedInstance(of:name:arguments:)``).
        for (binding, entry) in entries.filter({ $0.binding.forwarding == nil })
            + entries.filter({ $0.binding.forwarding != nil })
        where binding.isShared && matching(binding) {
            withExtendedLifetime(entry.reset()) {}
        }
    }

    /// Files `binding` under `key` — in place of `replaced`, if that is given and is still the
    /// key's; if `onlyIfAbsent`, only if nothing is registered under `key` here — then the registrations that reach it under other types: the `forwards` declared
    /// with it and those declared before, made again from `binding` so that they take its scope,
    /// each under its key. A resolve sees the old registration or the new one under each.
    ///
    /// Lock order: `forwarders`, then the registry's locks. (Held across: two statements
    /// registering the same key do not interleave their forwarding registrations.)
    ///
    /// - Returns: Whether it filed `binding`, and what the replaced registrations held, for the
    ///   caller to let go with no lock held.
    func file(
        _ binding: Binding, for key: ServiceKey,
        forwardedFrom forwards: [(key: ServiceKey, binding: @Sendable (Binding) -> Binding)],
        replacing replaced: Binding? = nil,
        onlyIfAbsent: Bool = false
    ) -> (filed: Bool, released: [Any?]) {
        forwarders.withLock { forwarders -> (Bool, [Any?]) in
            if let replaced, registry.entry(for: key)?.read().binding !== replaced { return (false, []) }
            if onlyIfAbsent, registry.entry(for: key) != nil { return (false, []) }
            var released = [registry.register(binding, for: key)]
            for forward in forwards {
                released.append(forwarders[key, default: [:]].updateValue(forward.binding, forKey: forward.key))
            }
            for (forwardKey, make) in forwarders[key] ?? [:] {
                let current = registry.entry(for: forwardKey)?.read().binding
                guard current?.forwarding == key || forwards.contains(where: { $0.key == forwardKey }) else {
                    // Registered since as something else.
                    released.append(forwarders[key]?.removeValue(forKey: forwardKey))
                    continue
                }
                released.append(registry.register(make(binding), for: forwardKey))
            }
            return (true, released)
        }
    }

    /// Unregisters `keys` here, with the registrations forwarding to them: a resolve from here
    /// finds a parent's registration of them again, or none. Returns what they let go, to be let
    /// go with no lock held.
    func unfile(_ keys: [ServiceKey]) -> [Any?] {
        forwarders.withLock { forwarders in
            var removed = keys
            for key in keys {
                for forwardKey in (forwarders.removeValue(forKey: key) ?? [:]).keys
                where registry.entry(for: forwardKey)?.read().binding.forwarding == key {
                    removed.append(forwardKey)
                }
            }
            return registry.remove(removed)
        }
    }

    /// Drops what the registrations forwarding to `key` keep; returns it, to be let go with no lock
    /// held.
    func resetForwarders(of key: ServiceKey) -> [Any?] {
        let keys = forwarders.withLock { $0[key]?.keys.map { $0 } ?? [] }
        return keys.compactMap { forwardKey in
            guard let entry = registry.entry(for: forwardKey), entry.read().binding.forwarding == key else {
                return nil
            }
            return entry.reset()
        }
    }

    /// Whether an `Optional` type is registered here or in the parent chain: then a resolve of `T?`
    /// looks for that registration first.
    @usableFromInline
    var registersOptionals: Bool {
        registry.holdsOptionals || parent?.registersOptionals == true
    }

    /// Whether a resolve of `service` under `name` with `arguments` from here has something to
    /// make: a registration in the chain, an `Optional`, or a ``Lazy`` or ``Provider`` of a
    /// service it provides. (A dry run also counts what only the checked child registers.)
    @usableFromInline
    func provides(_ service: any Any.Type, name: String?, arguments: ObjectIdentifier) -> Bool {
        if entry(for: ServiceKey(erased: service, name: name, arguments: arguments)) != nil { return true }
        if service is any OptionalService.Type { return true }
        let none = ObjectIdentifier(Void.self)
        guard arguments == none, let deferred = service as? any DeferredService.Type else { return false }
        return provides(deferred.deferred, name: name, arguments: none)
    }

    /// The entry for `key` here or in the parent chain.
    func entry(for key: ServiceKey) -> RegistryEntry? {
        lookUp(key)?.0
    }

    /// The entry for `key` here or in the parent chain, borrowed (the registries hold their
    /// entries as long as this container holds them), with the parent that has it, if one does.
    func entryAndParent(for key: ServiceKey) -> (Borrowed<RegistryEntry>, Container?)? {
        if let entry = registry.borrowedEntry(for: key) { return (entry, nil) }
        if let entry = registry.entry(for: key) { return (Borrowed(entry), nil) }
        return parentEntry(for: key).map { (Borrowed($0.0), $0.1) }
    }

    /// Whether the registration under `key` needs an async resolve and not the main actor: a
    /// main-actor hop (``AsyncResolution/onMainActor(_:from:_:)``) that finds it, having waited for
    /// the main actor while it replaced the main-actor one, resolves it after the hop instead of in
    /// its synchronous part, which cannot.
    func isReplacedByAsync(_ key: ServiceKey) -> Bool {
        guard let binding = entry(for: key)?.read().binding else { return false }
        return binding.needsAsyncResolve && !binding.isMainActor
    }

    /// The entry for `key` here or in the parent chain, with the container that has it.
    func lookUp(_ key: ServiceKey) -> (RegistryEntry, Container)? {
        if let entry = registry.entry(for: key) { return (entry, self) }
        return parentEntry(for: key)
    }

    /// The entry for `key` in the parent chain, with the container that has it — except a
    /// declared service's default above a container that keeps its own (a test's): that one is
    /// not seen from below it, so that the test makes its own instances (an override there is).
    private func parentEntry(for key: ServiceKey) -> (RegistryEntry, Container)? {
        var container = self
        var keepsOwnDefaults = false
        while let parent = container.parent {
            keepsOwnDefaults = keepsOwnDefaults || container.keepsDeclaredDefaults
            container = parent
            guard let entry = container.registry.entry(for: key) else { continue }
            if keepsOwnDefaults, key.isDeclared, entry.read().binding.isDeclaredDefault { return nil }
            return (entry, container)
        }
        return nil
    }

    /// The registrations of this container itself (not a stand-in that a reset just left: the
    /// key is unregistered).
    var bindings: [Binding] {
        registry.entries.map { $0.entry.read().binding }.filter { !$0.isStandIn }
    }

    /// Descriptions of the registrations of one service type, here and in the parent chain.
    func registrations(of service: ObjectIdentifier) -> [String] {
        let local = registry.entries.filter { $0.key.service == service }.map { $0.entry.read().binding }
            .filter { !$0.isStandIn }.map(\.summary)
        return local.sorted() + (parent?.registrations(of: service) ?? [])
    }

}
