import TraitInjection

// The services of the concurrency tour.

/// A pet registry opened asynchronously, as a database would be.
final class PetRegistry: Sendable {
    let pets: [String]

    private init(pets: [String]) { self.pets = pets }

    static func open() async -> PetRegistry {
        await Task.yield()  // Stands in for reading a file or a network answer.
        return PetRegistry(pets: ["Mimi", "Hachi"])
    }
}

/// A view model, isolated to the main actor as UI state is.
@MainActor
final class PetListViewModel {
    let registry: PetRegistry
    var title: String { "\(registry.pets.count) pets: \(registry.pets.joined(separator: ", "))" }

    init(registry: PetRegistry) { self.registry = registry }
}

/// The concurrency half of the tour: an async factory resolved by many tasks at once, and a
/// main-actor service resolved from a task that is not on the main actor.
func runConcurrencyTour() async throws {
    print("== Container: async factories and the main actor ==")
    let container = Container()
    container.register(PetRegistry.self) { _ in await PetRegistry.open() }.inScope(.container)
    // Main-actor and async: it runs on the main actor, and awaits the registry.
    container.register(PetListViewModel.self) { @MainActor r in
        PetListViewModel(registry: try await r.resolve(PetRegistry.self))
    }

    // A synchronous resolve cannot wait for the registry to open.
    do {
        _ = try container.resolve(PetRegistry.self)
    } catch {
        print(error.kind)  // needsAsyncResolve
    }

    // Ten tasks at once: the registry is opened once, and every task gets it.
    let registries = try await withThrowingTaskGroup(of: PetRegistry.self) { group in
        for _ in 0..<10 { group.addTask { try await container.resolveAsync(PetRegistry.self) } }
        return try await group.reduce(into: []) { $0.append($1) }
    }
    print("Ten tasks, one registry:", registries.allSatisfy { $0 === registries[0] })  // true

    // From a task off the main actor: the factory runs on the main actor.
    let viewModel = try await Task.detached { try await container.resolveAsync(PetListViewModel.self) }.value
    print(await viewModel.title)  // 2 pets: Mimi, Hachi
}
