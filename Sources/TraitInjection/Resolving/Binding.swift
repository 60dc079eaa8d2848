/// A registration as resolves see it: everything `register` and the refinements of its
/// ``Registration`` said, fixed once the statement that registered it has ended. Not generic:
/// the engine runs on erased instances, and the typed call site casts its result.
@usableFromInline
final class Binding: Sendable {
    /// How the factory runs: a `FactoryBox<Service, repeat each Argument>`, an
    /// `AsyncFactoryBox<…>`, or a main-actor `FactoryBox` with a `MainActorHop<…>` for async
    /// resolves. The typed call site casts the box to its own argument types (the key has them).
    @usableFromInline
    enum Factory: Sendable {
        case sync(any AnyObject & Sendable)
        case async(any AnyObject & Sendable)
        case mainActor(any AnyObject & Sendable, hop: any AnyObject & Sendable)
    }

    /// An `initCompleted` closure, or auto-injection, on the erased instance.
    @usableFromInline
    enum Completion: Sendable {
        case sync(@Sendable (Resolution, Any) throws -> Void)
        case async(@Sendable (AsyncResolution, Any) async throws -> Void)
    }

    let description: ServiceDescription
    let location: String
    let assembly: String?
    /// This registration as a step of a resolution path.
    let step: ResolutionError.Step
    let scope: ScopeKind
    @usableFromInline let factory: Factory
    /// The box of a synchronous (or main-actor) factory.
    @usableFromInline let syncBox: any AnyObject & Sendable
    /// The box of an async factory, or of a main-actor factory's hop.
    let asyncBox: (any AnyObject & Sendable)?
    /// Whether a shared scope keeps its instance (read on every resolve: stored, not derived).
    let isShared: Bool
    let isMainActor: Bool
    /// Whether its service is an `Optional` type (``Registry``).
    let isOptional: Bool
    private let isGraph: Bool
    let completions: [Completion]
    let reinitializeStrategy: ReinitializeStrategy
    /// Whether the container fills in the `@Inject` properties of what it makes: not for an
    /// instance the app handed over with `register(instance:)`.
    let autoInjects: Bool
    /// For a registration made by ``Registration/implements(_:as:)``: the key of the one it
    /// reaches.
    let forwarding: ServiceKey?
    let autoInjection = AutoInjectionCache()
    let needsAsyncResolve: Bool
    /// What the shared scope keeps of a new instance: a `Kept<Service>` box, or a weak reference.
    let keep: @Sendable (Any) -> KeptState
    /// A resolve of the service, for a dry run (verify) and for a ``Lazy``.
    let verify: @Sendable (Resolution) throws(ResolutionError) -> Void
    let verifyAsync: @Sendable (AsyncResolution) async throws(ResolutionError) -> Void
    /// Whether it is a declared service's default, filed by its first use (not an override).
    let isDeclaredDefault: Bool
    /// Whether it stands in the entry of an unregistered key (``standIn()``).
    let isStandIn: Bool
    /// Whether it is a ``Lazy``'s own (``LazyStorage``), filed in no container: the `Lazy` keeps
    /// its instance for whatever holds the `Lazy`.
    let isLazys: Bool
    /// Whether it hands out an instance the app registered (``Container/register(_:name:instance:file:line:)``),
    /// or forwards to such a registration: ``Container/reinitialize()`` hands out the same one.
    let isInstance: Bool

    /// A binding of `Service`: the few parts that need its type, made here, around the erased
    /// initialiser that sets everything else, so that the type's specialisations stay small.
    convenience init<Service>(
        _: Service.Type,
        description: ServiceDescription,
        location: String,
        assembly: String?,
        scope: ScopeKind,
        factory: Factory,
        completions: [Completion],
        reinitializeStrategy: ReinitializeStrategy,
        autoInjects: Bool,
        forwarding: ServiceKey? = nil,
        declared: (key: ServiceKey, isDefault: Bool)? = nil,
        isLazys: Bool = false,
        isInstance: Bool = false
    ) {
        let verify: @Sendable (Resolution) throws(ResolutionError) -> Void
        let verifyAsync: @Sendable (AsyncResolution) async throws(ResolutionError) -> Void
        if let key = declared?.key {
            verify = { r throws(ResolutionError) in _ = try r.find(Service.self, key: key) }
            verifyAsync = { r throws(ResolutionError) in _ = try await r.resolve(Service.self, key: key) }
        } else {
            let name = description.name
            verify = { r throws(ResolutionError) in _ = try r.resolve(Service.self, name: name) }
            verifyAsync = { r throws(ResolutionError) in _ = try await r.resolve(Service.self, name: name) }
        }
        self.init(
            description: description, location: location, assembly: assembly, scope: scope, factory: factory,
            completions: completions, reinitializeStrategy: reinitializeStrategy, autoInjects: autoInjects,
            forwarding: forwarding, isDeclaredDefault: declared?.isDefault ?? false,
            isOptional: _isOptional(Service.self), keep: { instance in scope.keep(instance, as: Service.self) },
            verify: verify, verifyAsync: verifyAsync, isStandIn: false, isLazys: isLazys, isInstance: isInstance)
    }

    private init(
        description: ServiceDescription,
        location: String,
        assembly: String?,
        scope: ScopeKind,
        factory: Factory,
        completions: [Completion],
        reinitializeStrategy: ReinitializeStrategy,
        autoInjects: Bool,
        forwarding: ServiceKey?,
        isDeclaredDefault: Bool,
        isOptional: Bool,
        keep: @escaping @Sendable (Any) -> KeptState,
        verify: @escaping @Sendable (Resolution) throws(ResolutionError) -> Void,
        verifyAsync: @escaping @Sendable (AsyncResolution) async throws(ResolutionError) -> Void,
        isStandIn: Bool,
        isLazys: Bool,
        isInstance: Bool
    ) {
        self.isStandIn = isStandIn
        self.isLazys = isLazys
        self.isInstance = isInstance
        self.forwarding = forwarding
        self.description = description
        self.location = location
        self.assembly = assembly
        step = ResolutionError.Step(service: description.description, location: location, assembly: assembly)
        self.scope = scope
        self.factory = factory
        switch factory {
        case .sync(let box): (syncBox, asyncBox, isMainActor) = (box, nil, false)
        case .async(let box): (syncBox, asyncBox, isMainActor) = (box, box, false)
        case .mainActor(let box, let hop): (syncBox, asyncBox, isMainActor) = (box, hop, true)
        }
        isShared = scope.isShared
        self.isOptional = isOptional
        takesArguments = !description.arguments.isEmpty
        isGraph = scope == .graph
        self.completions = completions
        self.reinitializeStrategy = reinitializeStrategy
        self.autoInjects = autoInjects
        needsAsyncResolve =
            if case .async = factory { true } else {
                completions.contains { if case .async = $0 { true } else { false } }
            }
        isPlain = !isShared && !needsAsyncResolve && !isMainActor && !isStandIn
        self.keep = keep
        self.verify = verify
        self.verifyAsync = verifyAsync
        self.isDeclaredDefault = isDeclaredDefault
    }

    /// What takes this binding's place in its entry when its key is unregistered
    /// (``Registry/remove(_:)``), so that the entry lets go of this one and of what it kept. A
    /// resolve that reads it — having found the entry just before — resolves as if it had found
    /// no entry (``Found/unregistered``), and so does one that was waiting for an instance of
    /// this one (``Claim/unfiled``): as if the key had been unregistered first. A declared
    /// service's resolve then files its default, or finds the parent's registration, and looks
    /// again. It runs nothing: its factory is never called.
    ///
    /// Invariant: a stand-in is published (sequentially consistent) after its entry's flag is
    /// cleared (releasing), both under the registry's lock, and the flag is set again only after
    /// a new binding replaced it; a lookup reads the flag acquiring. So a resolve that read a
    /// stand-in finds the entry unfiled, or holding a new binding, when it looks again: the
    /// look-again loops (``Declaration/resolveFirst(from:filingIn:arguments:)``) do not spin on one.
    func standIn() -> Binding {
        // Built by the erased initialiser: the typed one, with `Never`, specialised the async
        // resolve its verifying closure calls (about 13 KB of code that no stand-in runs). A
        // stand-in is transient (it keeps nothing) and never verified (``visibleBindings()``).
        Binding(
            description: description, location: location, assembly: assembly, scope: .transient,
            factory: .sync(StandInFactory()), completions: [], reinitializeStrategy: .reCreate, autoInjects: false,
            forwarding: nil, isDeclaredDefault: false, isOptional: false, keep: { _ in .empty },
            verify: { _ throws(ResolutionError) in }, verifyAsync: { _ throws(ResolutionError) in }, isStandIn: true,
            isLazys: false, isInstance: false)
    }

    /// Whether a top-level resolve of it takes the short path (``ResolveStack/makeTop``): it keeps
    /// no shared instance, waits for none, and needs no async resolve or main actor.
    let isPlain: Bool

    /// Whether it takes runtime arguments: then, and only then, a resolve of it has argument
    /// values (stored: asking an `ArgumentValues?` whether it is `nil` goes through witnesses).
    let takesArguments: Bool

    /// Whether a resolve keeps one instance for its whole graph: `.graph`, and in a dry run the
    /// shared scopes too (it keeps nothing beyond the run).
    func isPerResolve(inDryRun isDryRun: Bool) -> Bool { isGraph || (isDryRun && isShared) }

    /// What a new `instance` needs done once its object graph exists, in order: its auto-injection
    /// (if it has ``Inject`` properties), then its `initCompleted` closures.
    func completions(
        of instance: Any,
        _ type: ObjectIdentifier,
        from lookup: Container,
        creation: Creation?,
        part: UInt64?
    ) -> [Resolve.Pending] {
        var completions: [Resolve.Pending] = []
        if autoInjects, let injection = autoInjection.injection(into: instance, type, of: self) {
            completions.append(
                Resolve.Pending(binding: self, lookup: lookup, creation: creation, part: part, run: .sync(injection)))
        }
        for completion in self.completions {
            let run: Resolve.Pending.Run =
                switch completion {
                case .sync(let completion): .sync { try completion($0, instance) }
                case .async(let completion): .async { try await completion($0, instance) }
                }
            completions.append(Resolve.Pending(binding: self, lookup: lookup, creation: creation, part: part, run: run))
        }
        return completions
    }

    /// `Animal (name: "dog") at App.swift:12 in PetAssembly`.
    var summary: String { "\(description) at \(location)\(assembly.map { " in \($0)" } ?? "")" }
}

/// A factory with its exact argument types, so that a resolve calls it without a dynamic cast.
@usableFromInline
final class FactoryBox<Service, each Argument>: Sendable {
    @usableFromInline let make: @Sendable (Resolution, repeat each Argument) throws -> Service

    init(_ make: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service) {
        self.make = make
    }

    /// Calls the factory: the box, held by its binding, lends it (nothing is retained).
    @inlinable
    func callAsFunction(_ resolution: Resolution, _ arguments: repeat each Argument) throws -> Service {
        try make(resolution, repeat each arguments)
    }
}

/// An async factory with its exact argument types.
@usableFromInline
final class AsyncFactoryBox<Service, each Argument>: Sendable {
    @usableFromInline let make: @Sendable (AsyncResolution, repeat each Argument) async throws -> Service

    init(_ make: @escaping @Sendable (AsyncResolution, repeat each Argument) async throws -> Service) {
        self.make = make
    }
}

/// How an async resolve runs a main-actor factory: on the main actor, as a synchronous part of
/// the resolve. Made where `Service` and the arguments are known to be `Sendable`, as crossing to
/// the main actor and back needs.
@usableFromInline
final class MainActorHop<Service, each Argument>: Sendable {
    @usableFromInline
    let run: @Sendable (AsyncResolution, repeat each Argument) async throws(ResolutionError) -> Service

    init(_ run: @escaping @Sendable (AsyncResolution, repeat each Argument) async throws(ResolutionError) -> Service) {
        self.run = run
    }
}

/// What the engine hands back to a resolve's typed call site.
@usableFromInline
enum Found {
    /// The instance the call site's closures made or took out of a kept box last.
    case made
    /// An instance found, of the service's type.
    case instance(Any)
    /// Nothing is registered under the key: the call site tries `T?`, `Lazy` and `Provider`.
    case unregistered
    /// The resolver asked has expired: its resolve has ended, or it belongs to another thread.
    case expired

    /// `instance`, found, as the call site's `Service`: without the runtime's dynamic cast when it
    /// is one, as a `.graph` instance found again is (opening the `Any` only reads its type).
    @inlinable
    static func cast<Service>(_ instance: Any, to _: Service.Type) -> Service {
        func open<Found>(_ found: Found) -> Service {
            Found.self == Service.self ? unsafeBitCast(found, to: Service.self) : found as! Service
        }
        return open(instance)
    }
}

/// The factory of a binding that stands in an unregistered entry (``Binding/standIn()``): never
/// called, as every resolve that reads that binding resolves as if it found no entry.
private final class StandInFactory: Sendable {}
