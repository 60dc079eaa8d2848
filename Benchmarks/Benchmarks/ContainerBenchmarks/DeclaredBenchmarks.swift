import Benchmark
import TraitInjection

// Declared services (issue 34) beside the same registrations resolved by type: the rows of
// `transientRows`, `singletonRows`, `graphRows` and `oneArgumentRows` with `container.x()`.

extension TraitInjection.Container {
    var declaredTransient: Registered<TransientService> { self { _ in TransientService() }.inScope(.transient) }
    var declaredSingleton: Registered<SingletonService> { self { _ in SingletonService() }.inScope(.container) }
    var declaredLeaf: Registered<Leaf> { self { _ in Leaf() } }
    var declaredMiddle: Registered<Middle> { self { r in Middle(leaf: try r.declaredLeaf()) }.inScope(.transient) }
    var declaredRoot: Registered<Root> {
        self { r in Root(left: try r.declaredMiddle(), right: try r.declaredMiddle()) }
    }
    var declaredGreeter: RegisteredWith<Int, Greeter> { self { _, times in Greeter(times) } }
}

func declaredRows() {
    Benchmark("Resolve transient: TraitInjection declared") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.declaredTransient() })
        }
    } setup: {
        warmDeclared()
    }

    Benchmark("Resolve singleton: TraitInjection declared") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.declaredSingleton() })
        }
    } setup: {
        warmDeclared()
    }

    Benchmark("Resolve 4-object graph: TraitInjection declared") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.declaredRoot() })
        }
    } setup: {
        warmDeclared()
    }

    Benchmark("Resolve one argument: TraitInjection declared") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.declaredGreeter(3) })
        }
    } setup: {
        warmDeclared()
    }
}

/// A container whose declared services have each been used once: their defaults are registered
/// and the singleton made, as in an app after its first use of each.
func warmDeclared() -> TraitInjection.Container {
    let container = TraitInjection.Container()
    _ = must { try container.declaredTransient() }
    _ = must { try container.declaredSingleton() }
    _ = must { try container.declaredRoot() }
    _ = must { try container.declaredGreeter(3) }
    return container
}
