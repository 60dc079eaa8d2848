/// A registration as resolves see it: everything `register` and the refinements of its
/// ``Registration`` said, fixed once the statement that registered it has ended.
final class Binding<Service>: AnyBinding {
    /// How the factory runs.
    enum Factory: Sendable {
        /// A `FactoryBox<Service, repeat each Argument>`.
        case sync(any AnyObject & Sendable)
        /// An `AsyncFactoryBox<Service, repeat each Argument>`.
        case async(any AnyObject & Sendable)
        /// A `FactoryBox` run on the main actor, and a `MainActorHop<Service, repeat each
        /// Argument>` with which an async resolve gets there.
        case mainActor(any AnyObject & Sendable, hop: any AnyObject & Sendable)
    }

    /// An `initCompleted` closure.
    enum Completion: Sendable {
        case sync(@Sendable (Resolution, Service) throws -> Void)
        case async(@Sendable (AsyncResolution, Service) async throws -> Void)
    }

    let description: ServiceDescription
    let location: String
    let assembly: String?
    let scope: ScopeKind
    let factory: Factory
    let completions: [Completion]
    let reinitializeStrategy: ReinitializeStrategy
    /// Whether the container fills in the `@Inject` properties of what it makes: not for an
    /// instance the app handed over with `register(instance:)`.
    let autoInjects: Bool
    let autoInjection = AutoInjectionCache()
    let needsAsyncResolve: Bool

    init(
        description: ServiceDescription,
        location: String,
        assembly: String?,
        scope: ScopeKind,
        factory: Factory,
        completions: [Completion],
        reinitializeStrategy: ReinitializeStrategy,
        autoInjects: Bool
    ) {
        self.description = description
        self.location = location
        self.assembly = assembly
        self.scope = scope
        self.factory = factory
        self.completions = completions
        self.reinitializeStrategy = reinitializeStrategy
        self.autoInjects = autoInjects
        needsAsyncResolve =
            if case .async = factory { true } else {
                completions.contains { if case .async = $0 { true } else { false } }
            }
    }

    var takesArguments: Bool { !description.arguments.isEmpty }

    var isMainActor: Bool {
        if case .mainActor = factory { true } else { false }
    }

    var step: ResolutionError.Step {
        ResolutionError.Step(service: description.description, location: location, assembly: assembly)
    }

    var summary: String { "\(description) at \(location)\(assembly.map { " in \($0)" } ?? "")" }

    func verify(in resolution: Resolution) throws(ResolutionError) {
        _ = try resolution.resolve(Service.self, name: description.name)
    }

    func verify(in resolution: AsyncResolution) async throws(ResolutionError) {
        _ = try await resolution.resolve(Service.self, name: description.name)
    }
}

/// A registration seen without its service type.
protocol AnyBinding: AnyObject, Sendable {
    var step: ResolutionError.Step { get }
    /// `Animal (name: "dog") at App.swift:12 in PetAssembly`.
    var summary: String { get }
    var scope: ScopeKind { get }
    var takesArguments: Bool { get }
    /// Whether only an async resolve can make an instance: the factory or a completion awaits.
    var needsAsyncResolve: Bool { get }
    var isMainActor: Bool { get }
    var reinitializeStrategy: ReinitializeStrategy { get }
    /// Resolves this registration (which takes no arguments) in `resolution`: a dry run's step.
    func verify(in resolution: Resolution) throws(ResolutionError)
    func verify(in resolution: AsyncResolution) async throws(ResolutionError)
}

/// A factory with its exact argument types, so that a resolve calls it without a dynamic cast.
final class FactoryBox<Service, each Argument>: Sendable {
    let make: @Sendable (Resolution, repeat each Argument) throws -> Service

    init(_ make: @escaping @Sendable (Resolution, repeat each Argument) throws -> Service) {
        self.make = make
    }
}

/// An async factory with its exact argument types.
final class AsyncFactoryBox<Service, each Argument>: Sendable {
    let make: @Sendable (AsyncResolution, repeat each Argument) async throws -> Service

    init(_ make: @escaping @Sendable (AsyncResolution, repeat each Argument) async throws -> Service) {
        self.make = make
    }
}

/// How an async resolve runs a main-actor factory: on the main actor, as a synchronous part of
/// the resolve. Made where `Service` and the arguments are known to be `Sendable`, as crossing to
/// the main actor and back needs.
final class MainActorHop<Service, each Argument>: Sendable {
    let run: @Sendable (AsyncResolution, repeat each Argument) async throws(ResolutionError) -> Service

    init(_ run: @escaping @Sendable (AsyncResolution, repeat each Argument) async throws(ResolutionError) -> Service) {
        self.run = run
    }
}
