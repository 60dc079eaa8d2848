/// Where a synchronous resolve starts, and the one place where the engine, which works on erased
/// instances, meets a call site, where the service's type and the arguments' are known
/// (``find(_:name:arguments:)``).
@usableFromInline
enum Origin {
    /// `container.resolve`: a top-level resolve (nested in the one whose factory runs on this
    /// thread, if one does).
    case container(Container)
    /// A factory's resolver.
    case resolution(Resolution)
    /// The first read of a ``Lazy``: its own registration, kept in its own slot (a `LazySlot`).
    case lazy(AnyObject)
}

/// The storage of a ``Lazy``, as its first read sees it: a registration filed in no container,
/// kept here, resolved from `container` in `graph`.
protocol LazySlot: KeptSlot {
    var binding: Binding { get }
    var container: Container? { get }
    var graph: GraphRecord? { get }
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
        var made: Service?
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        let found = try resolve(key, ArgumentValues.of(repeat each arguments)) { binding, resolution in
            let factory = unsafeDowncast(binding.syncBox, to: FactoryBox<Service, repeat each Argument>.self)
            let instance = try factory.make(resolution, repeat each arguments)
            made = instance
            return (instance, ObjectIdentifier(type(of: instance)))
        }
        switch found {
        case .kept(let box): return unsafeDowncast(box, to: Kept<Service>.self).instance
        case .made: return made.unsafelyUnwrapped
        case .instance(let instance): return (instance as! Service)
        case .unregistered: return nil
        case .expired: throw .expired(Service.self, name: name, arguments: (repeat each Argument).self)
        }
    }

    /// Resolves `Service`, which ``find(_:name:arguments:)`` found registered nowhere: `T?`,
    /// ``Lazy``, ``Provider``, or an error naming what is registered.
    @inlinable
    func resolve<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        if let found = try find(Service.self, name: name, arguments: repeat each arguments) { return found }
        return try unregistered(Service.self, name: name, arguments: repeat each arguments)
    }

    /// The engine's side of ``find(_:name:arguments:)``: resolves the registration under `key`
    /// with `values`; `factory` calls a synchronous factory with the call site's types.
    @usableFromInline
    func resolve(
        _ key: ServiceKey,
        _ values: ArgumentValues?,
        factory: (Binding, Resolution) throws -> (Any, type: ObjectIdentifier)
    ) throws(ResolutionError) -> Found {
        try ResolvingThread.with { thread throws(ResolutionError) in
            try resolve(key, values, on: thread, factory)
        }
    }

    private func resolve(
        _ key: ServiceKey,
        _ values: ArgumentValues?,
        on thread: ResolvingThread,
        _ factory: (Binding, Resolution) throws -> (Any, type: ObjectIdentifier)
    ) throws(ResolutionError) -> Found {
        let stack = thread.stack
        switch self {
        case .container(let container):
            // The first look: one lookup and one read of the entry. A cached singleton ends here.
            if !container.isTraced, !stack.isObserving, let (entry, owner) = container.lookUp(key) {
                let (binding, box) = entry.readUnlessKept()
                guard let binding else { return .kept(box!) }
                return try stack.topLevel(container, makesOne: true, describing: binding.step.service) {
                    t throws(ResolutionError) in
                    try stack.resolve(binding, nil, keptIn: entry, by: owner, from: container, at: t, -1, values, factory)
                }
            }
            let service = { container.lookUp(key)?.0.read().binding.step.service ?? "?" }
            return try stack.topLevel(container, makesOne: true, describing: service()) {
                t throws(ResolutionError) in
                try stack.resolve(key, values, from: container, at: t, -1, factory: factory)
            }
        case .resolution(let resolution):
            guard let (t, f, lookup) = stack.position(of: resolution) else { return .expired }
            return try stack.resolve(key, values, from: lookup, at: t, f, factory: factory)
        case .lazy(let object):
            let slot = object as! any LazySlot
            guard let container = slot.container else { return .expired }
            return try stack.topLevel(container, inheriting: slot.graph, describing: slot.binding.step.service) {
                t throws(ResolutionError) in
                try stack.make(slot.binding, keptIn: slot, by: container, from: container, at: t, -1, nil, factory)
            }
        }
    }

    /// ``resolve(_:name:arguments:)`` of a service registered nowhere.
    @usableFromInline
    func unregistered<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        let stack = ResolvingThread.current.stack
        switch self {
        case .container(let container):
            return try stack.topLevel(container, describing: "\(Service.self)") { t throws(ResolutionError) in
                try stack.unregistered(
                    Service.self, name: name, arguments: repeat each arguments, from: container, at: t, -1)
            }
        case .resolution(let resolution):
            guard let (t, f, lookup) = stack.position(of: resolution) else {
                throw .expired(Service.self, name: name, arguments: (repeat each Argument).self)
            }
            return try stack.unregistered(Service.self, name: name, arguments: repeat each arguments, from: lookup, at: t, f)
        case .lazy:
            preconditionFailure("a Lazy's own registration is always there")
        }
    }
}

extension ResolveStack {
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

    /// Where `resolution` stands — its top, its frame (`-1` at the top) and where it looks up —
    /// if it is live on this stack: not if its resolve has ended, or it belongs to another thread.
    func position(of resolution: Resolution) -> (t: Int, f: Int, lookup: Container)? {
        let p = resolution.position
        if p >= 0, isLive(frame: p, resolution.serial) { return (frames[p].top, p, lookup(of: p)) }
        if p < 0, isLive(top: -1 - p, resolution.serial) { return (-1 - p, -1, tops[-1 - p].container) }
        return nil
    }

    /// Whether a resolve started here now may be nested in an observed one (traced, or a dry
    /// run): then no shortcut skips it.
    var isObserving: Bool { observedTops > 0 }
}
