import Benchmark
import TraitInjection

// Autoregistration from an initializer (issue 17), beside the same graph registered by hand
// (`makeTraitContainer()`), in one run: the 4-object graph, per resolve.

/// The 4-object graph, each service registered from its initializer.
func makeAutoregisteredContainer() -> TraitInjection.Container {
    let container = TraitInjection.Container()
    container.autoregister(Leaf.self, initializer: Leaf.init)
    container.autoregister(Middle.self, initializer: Middle.init).inScope(.transient)
    container.autoregister(Root.self, initializer: Root.init)
    return container
}

func autoregistrationBenchmarks() {
    Benchmark("Autoregistration: 4-object graph, from initializers") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(Root.self) })
        }
    } setup: {
        makeAutoregisteredContainer()
    }

    Benchmark("Autoregistration: 4-object graph, by hand") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(Root.self) })
        }
    } setup: {
        makeTraitContainer()
    }
}
