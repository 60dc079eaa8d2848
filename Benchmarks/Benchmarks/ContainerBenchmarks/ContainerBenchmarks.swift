import Benchmark
import Dispatch
import Swinject
import Synchronization
import TraitInjection

// Container resolution, side by side with Swinject 2.10.0 and with the code a container replaces
// (a locked dictionary of singletons, a graph built by hand), in one run. Each measured
// iteration does 1,000 resolutions (`scalingFactor: .kilo`), so results read per resolution.

final class Leaf: @unchecked Sendable {}

/// The transient service: no dependencies.
final class TransientService: @unchecked Sendable {}

/// The `.container` singleton.
final class SingletonService: @unchecked Sendable {}

final class Middle: @unchecked Sendable {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

/// The 4-object graph: a root over two middles sharing one leaf.
final class Root: @unchecked Sendable {
    let left: Middle
    let right: Middle
    init(left: Middle, right: Middle) {
        self.left = left
        self.right = right
    }
}

/// The floor for a singleton: a lock and a dictionary from type to instance, cast back.
final class SingletonFloor: Sendable {
    let instances = Mutex<[ObjectIdentifier: SingletonService]>([
        ObjectIdentifier(SingletonService.self): SingletonService()
    ])

    func resolve() -> SingletonService? {
        instances.withLock { $0[ObjectIdentifier(SingletonService.self)] }
    }
}

func makeTraitContainer() -> TraitInjection.Container {
    let container = TraitInjection.Container()
    container.register(TransientService.self) { _ in TransientService() }.inScope(.transient)
    container.register(SingletonService.self) { _ in SingletonService() }.inScope(.container)
    container.register(Leaf.self) { _ in Leaf() }
    container.register(Middle.self) { r in Middle(leaf: try r.resolve(Leaf.self)) }.inScope(.transient)
    container.register(Root.self) { r in
        Root(left: try r.resolve(Middle.self), right: try r.resolve(Middle.self))
    }
    return container
}

func makeSwinjectContainer() -> Swinject.Container {
    let container = Swinject.Container()
    container.register(TransientService.self) { _ in TransientService() }.inObjectScope(.transient)
    container.register(SingletonService.self) { _ in SingletonService() }.inObjectScope(.container)
    container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.graph)
    container.register(Middle.self) { r in Middle(leaf: r.resolve(Leaf.self)!) }.inObjectScope(.transient)
    container.register(Root.self) { r in Root(left: r.resolve(Middle.self)!, right: r.resolve(Middle.self)!) }
        .inObjectScope(.graph)
    return container
}

/// The value of `body`; a benchmark whose resolution fails stops with the error.
@inline(__always)
func must<Value>(_ body: () throws -> Value) -> Value {
    do {
        return try body()
    } catch {
        fatalError("\(error)")
    }
}

/// Resolves `operations` cached singletons on each of `threads` threads at once.
func resolveSingletons(_ container: TraitInjection.Container, threads: Int, operations: Int) {
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
        for _ in 0..<operations {
            blackHole(must { try container.resolve(SingletonService.self) })
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )

    Benchmark("Resolve transient: TraitInjection") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(TransientService.self) })
        }
    } setup: {
        makeTraitContainer()
    }

    Benchmark("Resolve transient: Swinject") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(TransientService.self)!)
        }
    } setup: {
        makeSwinjectContainer()
    }

    Benchmark("Resolve transient: by hand") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(TransientService())
        }
    }

    Benchmark("Resolve singleton: TraitInjection") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(SingletonService.self) })
        }
    } setup: {
        makeTraitContainer()
    }

    Benchmark("Resolve singleton: Swinject") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(SingletonService.self)!)
        }
    } setup: {
        makeSwinjectContainer()
    }

    Benchmark("Resolve singleton: locked dictionary floor") { benchmark, floor in
        for _ in benchmark.scaledIterations {
            blackHole(floor.resolve())
        }
    } setup: {
        SingletonFloor()
    }

    Benchmark("Resolve 4-object graph: TraitInjection") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(Root.self) })
        }
    } setup: {
        makeTraitContainer()
    }

    Benchmark("Resolve 4-object graph: Swinject") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(Root.self)!)
        }
    } setup: {
        makeSwinjectContainer()
    }

    Benchmark("Resolve 4-object graph: by hand") { benchmark in
        for _ in benchmark.scaledIterations {
            let leaf = Leaf()
            blackHole(Root(left: Middle(leaf: leaf), right: Middle(leaf: leaf)))
        }
    }

    // Throughput: the same 1,000 resolutions per thread, on one thread and on two at once. With
    // perfect scaling the two-thread iteration takes as long as the one-thread one.
    Benchmark(
        "Resolve singleton 1,000x on 1 thread",
        configuration: .init(metrics: [.wallClock], timeUnits: .nanoseconds, scalingFactor: .one)
    ) { _, container in
        resolveSingletons(container, threads: 1, operations: 1_000)
    } setup: {
        makeTraitContainer()
    }

    Benchmark(
        "Resolve singleton 1,000x on each of 2 threads",
        configuration: .init(metrics: [.wallClock], timeUnits: .nanoseconds, scalingFactor: .one)
    ) { _, container in
        resolveSingletons(container, threads: 2, operations: 1_000)
    } setup: {
        makeTraitContainer()
    }
}
