import Synchronization

// The simple baseline beside TraitInjection's container: the same work per resolve, built only
// from plain parts (a locked `Dictionary` for the registry, one `Mutex` per registration for its
// singleton, a new resolution object per top-level resolve holding an `Array` path, an `Array` of
// graph instances and the claimed singletons, and strong references throughout). It does what
// the measured rows exercise — names, the three scopes, nested resolves through a resolver, a
// cycle check on every resolve, singletons published only once their whole resolve succeeds —
// and leaves out what they never reach (waiting for a singleton another thread is creating,
// replacing registrations while resolves run, resolvers kept past their resolve, stack checks).

/// The baseline's scopes, as TraitInjection's.
enum PlainScope {
    case transient, graph, container
}

enum PlainError: Error {
    case notRegistered(String)
    case cycle([String])
    case busy(String)
}

final class PlainContainer: Sendable {
    struct Key: Hashable, Sendable {
        let service: ObjectIdentifier
        let name: String?
    }

    let registry = Mutex<[Key: any PlainEntry]>([:])

    func register<Service: Sendable>(
        _ service: Service.Type,
        name: String? = nil,
        scope: PlainScope = .graph,
        factory: @escaping @Sendable (PlainResolver) throws -> Service
    ) {
        let entry = TypedEntry(scope: scope, factory: factory)
        registry.withLock { $0[Key(service: ObjectIdentifier(Service.self), name: name)] = entry }
    }

    func resolve<Service: Sendable>(_ service: Service.Type, name: String? = nil) throws -> Service {
        let resolution = PlainResolution(container: self)
        do {
            let instance = try resolution.resolve(service, name: name)
            resolution.publish()
            return instance
        } catch {
            resolution.abandon()
            throw error
        }
    }
}

/// A registration, whatever its service type.
protocol PlainEntry: AnyObject, Sendable {
    /// Makes the singleton available to every resolve.
    func publish(_ instance: Any)
    /// Gives up a claim to create the singleton.
    func abandon()
}

/// A singleton's state, behind its registration's own lock.
enum PlainCell<Service: Sendable>: Sendable {
    case empty
    case creating
    case ready(Service)
}

final class TypedEntry<Service: Sendable>: PlainEntry {
    let scope: PlainScope
    let factory: @Sendable (PlainResolver) throws -> Service
    let cell = Mutex<PlainCell<Service>>(.empty)

    init(scope: PlainScope, factory: @escaping @Sendable (PlainResolver) throws -> Service) {
        self.scope = scope
        self.factory = factory
    }

    func publish(_ instance: Any) {
        let instance = instance as! Service
        cell.withLock { $0 = .ready(instance) }
    }

    func abandon() {
        cell.withLock { $0 = .empty }
    }
}

/// What a factory resolves its dependencies with: the resolve's resolution, strongly held.
struct PlainResolver {
    let resolution: PlainResolution

    func resolve<Service: Sendable>(_ service: Service.Type, name: String? = nil) throws -> Service {
        try resolution.resolve(service, name: name)
    }
}

/// One top-level resolve: a new object each time.
final class PlainResolution {
    let container: PlainContainer
    var path: [PlainContainer.Key] = []
    var graph: [(key: PlainContainer.Key, instance: Any)] = []
    var claims: [(entry: any PlainEntry, instance: Any)] = []

    init(container: PlainContainer) {
        self.container = container
    }

    func resolve<Service: Sendable>(_ service: Service.Type, name: String?) throws -> Service {
        let key = PlainContainer.Key(service: ObjectIdentifier(Service.self), name: name)
        guard let found = container.registry.withLock({ $0[key] }) else {
            throw PlainError.notRegistered("\(Service.self)")
        }
        // The registration's type matches the key's: one class cast, no existential one.
        return try resolve(unsafeDowncast(found, to: TypedEntry<Service>.self), key)
    }

    private func resolve<Service: Sendable>(_ entry: TypedEntry<Service>, _ key: PlainContainer.Key) throws -> Service {
        if path.contains(key) { throw PlainError.cycle(path.map { "\($0.service)" }) }
        switch entry.scope {
        case .transient:
            return try create(entry, key)
        case .graph:
            if let found = graph.first(where: { $0.key == key }) { return found.instance as! Service }
            let instance = try create(entry, key)
            graph.append((key, instance))
            return instance
        case .container:
            if let own = claims.first(where: { $0.entry === entry }) { return own.instance as! Service }
            let ready = try entry.cell.withLock { cell -> Service? in
                switch cell {
                case .ready(let instance): return instance
                case .creating: throw PlainError.busy("\(Service.self)")
                case .empty:
                    cell = .creating
                    return nil
                }
            }
            if let ready { return ready }
            let instance: Service
            do {
                instance = try create(entry, key)
            } catch {
                entry.abandon()
                throw error
            }
            claims.append((entry, instance))
            return instance
        }
    }

    private func create<Service: Sendable>(_ entry: TypedEntry<Service>, _ key: PlainContainer.Key) throws -> Service {
        path.append(key)
        defer { path.removeLast() }
        return try entry.factory(PlainResolver(resolution: self))
    }

    /// Publishes the singletons this resolve created, once it has succeeded.
    func publish() {
        for (entry, instance) in claims { entry.publish(instance) }
    }

    /// Gives the claims up after a failure, so that another resolve may create them.
    func abandon() {
        for (entry, _) in claims { entry.abandon() }
        withExtendedLifetime(claims) {}
    }
}
