import Benchmark
import TraitInjectionLockedAsyncLookup

// The rows of `AsyncBenchmarks.swift` whose cost is the lookup, on the library's build with
// `resolveAsync`'s lookup in its plain version (`Variants/LockedAsyncLookup`), in the same run.

/// The baseline's container, with the same registrations as `makeAsyncContainer()`.
func makeBaselineAsyncContainer() async -> TraitInjectionLockedAsyncLookup.Container {
    let container = TraitInjectionLockedAsyncLookup.Container()
    container.register(SingletonService.self) { _ in SingletonService() }.inScope(.container)
    container.register(AsyncSingletonService.self) { _ in
        await ready()
        return AsyncSingletonService()
    }
    .inScope(.container)
    _ = await mustAwait { try await container.resolveAsync(SingletonService.self) }
    _ = await mustAwait { try await container.resolveAsync(AsyncSingletonService.self) }
    return container
}

func asyncBaselineBenchmarks() {
    Benchmark("Async resolve singleton: resolveAsync, async registration, baseline lookup under locks") {
        benchmark,
        container in
        for _ in benchmark.scaledIterations {
            blackHole(await mustAwait { try await container.resolveAsync(AsyncSingletonService.self) })
        }
    } setup: {
        await makeBaselineAsyncContainer()
    }

    Benchmark("Async resolve singleton: resolveAsync, sync registration, baseline lookup under locks") {
        benchmark,
        container in
        for _ in benchmark.scaledIterations {
            blackHole(await mustAwait { try await container.resolveAsync(SingletonService.self) })
        }
    } setup: {
        await makeBaselineAsyncContainer()
    }
}
