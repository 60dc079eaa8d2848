import Benchmark
import TraitInjection

// Async resolution (issue 16), beside the synchronous resolve of the same kind of registration
// and a floor: an actor holding a dictionary of instances, the plainest async cache. Each
// measured iteration does 1,000 resolutions, awaited one after the other from one task.

/// The async `.container` singleton.
final class AsyncSingletonService: Sendable {}

/// The async transient.
final class AsyncTransientService: Sendable {}

/// The floor: an actor and a dictionary from type to instance, cast back.
actor InstanceActor {
    private var instances: [ObjectIdentifier: AnyObject] = [
        ObjectIdentifier(AsyncSingletonService.self): AsyncSingletonService()
    ]

    func instance<Service: AnyObject>(_: Service.Type) -> Service? {
        instances[ObjectIdentifier(Service.self)] as? Service
    }
}

/// The sync registrations of `makeTraitContainer()`, plus async ones, with the singletons made.
func makeAsyncContainer() async -> TraitInjection.Container {
    let container = makeWarmContainer()
    container.register(AsyncSingletonService.self) { _ in
        await ready()
        return AsyncSingletonService()
    }
    .inScope(.container)
    container.register(AsyncTransientService.self) { _ in
        await ready()
        return AsyncTransientService()
    }
    .inScope(.transient)
    _ = await mustAwait { try await container.resolveAsync(AsyncSingletonService.self) }
    return container
}

/// An async call that returns at once: what makes the factories async without measuring a
/// suspension.
func ready() async {}

/// `body`'s value; a failure stops the benchmark.
func mustAwait<Value>(_ body: () async throws -> Value) async -> Value {
    do {
        return try await body()
    } catch {
        fatalError("\(error)")
    }
}

func asyncBenchmarks() {
    Benchmark("Async resolve singleton: resolveAsync, async registration") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(await mustAwait { try await container.resolveAsync(AsyncSingletonService.self) })
        }
    } setup: {
        await makeAsyncContainer()
    }

    // This row and the next: `resolveAsync` beside `resolve` of the same published singleton.
    Benchmark("Async resolve singleton: resolveAsync, sync registration", configuration: .limited(.asyncSingleton)) {
        benchmark,
        container in
        for _ in benchmark.scaledIterations {
            blackHole(await mustAwait { try await container.resolveAsync(SingletonService.self) })
        }
    } setup: {
        await makeAsyncContainer()
    }

    Benchmark("Async resolve singleton: sync resolve, sync registration") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(SingletonService.self) })
        }
    } setup: {
        await makeAsyncContainer()
    }

    Benchmark("Async resolve singleton: actor dictionary floor") { benchmark, floor in
        for _ in benchmark.scaledIterations {
            blackHole(await floor.instance(AsyncSingletonService.self))
        }
    } setup: {
        InstanceActor()
    }

    Benchmark("Async resolve transient: resolveAsync, async registration") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(await mustAwait { try await container.resolveAsync(AsyncTransientService.self) })
        }
    } setup: {
        await makeAsyncContainer()
    }

    Benchmark("Async resolve transient: resolveAsync, sync registration") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(await mustAwait { try await container.resolveAsync(TransientService.self) })
        }
    } setup: {
        await makeAsyncContainer()
    }

    Benchmark("Async resolve transient: sync resolve, sync registration") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(TransientService.self) })
        }
    } setup: {
        await makeAsyncContainer()
    }
}
