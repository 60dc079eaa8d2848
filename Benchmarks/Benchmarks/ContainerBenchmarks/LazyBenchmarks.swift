import Benchmark
import TraitInjection

// A `Provider` call beside the resolve it makes, and what a `Lazy` or `Provider` costs the
// container it holds weakly: an object with a weak reference to it keeps its reference count in
// a side table, which makes every retain of it slower. The rows with "held weakly" resolve from a
// container that a `Provider` references, beside the same resolve in `ContainerBenchmarks.swift`.

/// `makeTraitContainer()`, with a `Provider` of the transient service holding it weakly.
func makeWeaklyHeldContainer() -> (container: Container, provider: Provider<TransientService>) {
    let container = makeTraitContainer()
    return (container, must { try container.resolve(Provider<TransientService>.self) })
}

func lazyBenchmarks() {
    Benchmark("Provider call, transient") { benchmark, held in
        for _ in benchmark.scaledIterations {
            blackHole(must { try held.provider() })
        }
    } setup: {
        makeWeaklyHeldContainer()
    }

    Benchmark("Resolve transient: TraitInjection, container held weakly") { benchmark, held in
        for _ in benchmark.scaledIterations {
            blackHole(must { try held.container.resolve(TransientService.self) })
        }
    } setup: {
        makeWeaklyHeldContainer()
    }

    Benchmark("Resolve singleton: TraitInjection, container held weakly") { benchmark, held in
        for _ in benchmark.scaledIterations {
            blackHole(must { try held.container.resolve(SingletonService.self) })
        }
    } setup: {
        makeWeaklyHeldContainer()
    }

    Benchmark("Resolve 4-object graph: TraitInjection, container held weakly") { benchmark, held in
        for _ in benchmark.scaledIterations {
            blackHole(must { try held.container.resolve(Root.self) })
        }
    } setup: {
        makeWeaklyHeldContainer()
    }
}
