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

/// A service of seven parameters: past the overloads, autoregistered through the parameter pack.
final class Wide: @unchecked Sendable {
    let leaves: [Leaf]
    // swift-format-ignore
    init(_ a: Leaf, _ b: Leaf, _ c: Leaf, _ d: Leaf, _ e: Leaf, _ f: Leaf, _ g: Leaf) { leaves = [a, b, c, d, e, f, g] }
}

/// `Wide` from its initializer, and by hand under a name.
func makeWideContainer() -> TraitInjection.Container {
    let container = TraitInjection.Container()
    container.register(Leaf.self) { _ in Leaf() }
    container.autoregister(Wide.self, initializer: Wide.init)
    container.register(Wide.self, name: "by hand") { r in
        Wide(
            try r.resolve(Leaf.self), try r.resolve(Leaf.self), try r.resolve(Leaf.self), try r.resolve(Leaf.self),
            try r.resolve(Leaf.self), try r.resolve(Leaf.self), try r.resolve(Leaf.self))
    }
    return container
}

func autoregistrationBenchmarks() {
    Benchmark("Autoregistration: 7 parameters, through the pack") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(Wide.self) })
        }
    } setup: {
        makeWideContainer()
    }

    Benchmark("Autoregistration: 7 parameters, by hand") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(Wide.self, name: "by hand") })
        }
    } setup: {
        makeWideContainer()
    }

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
