import Benchmark
import TraitInjection

// The resolution trace: the rows `Resolve …: TraitInjection` in `ContainerBenchmarks.swift` are
// the trace off (its cost there is one relaxed load per top-level resolve and one branch per
// resolve); these are the same resolves traced into a closure that does nothing.

/// `makeTraitContainer()`, traced into a closure that discards each event.
func makeTracedContainer() -> Container {
    let container = makeTraitContainer()
    container.resolutionTrace = { blackHole($0) }
    return container
}

func traceBenchmarks() {
    Benchmark("Resolve transient: TraitInjection, traced") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(TransientService.self) })
        }
    } setup: {
        makeTracedContainer()
    }

    Benchmark("Resolve 4-object graph: TraitInjection, traced") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(Root.self) })
        }
    } setup: {
        makeTracedContainer()
    }
}
