import Benchmark
import TraitInjection

// What migrating users reach for, each beside the direct resolve of the same registration in one
// container: a resolve of a type the registration is forwarded to (`implements`), and of `T?` for
// a registered `T`.

protocol ForwardedSingleton: AnyObject, Sendable {}
extension SingletonService: ForwardedSingleton {}
protocol ForwardedTransient: AnyObject, Sendable {}
extension TransientService: ForwardedTransient {}

/// The transient and singleton services, each also under a protocol, the singleton made.
func makeForwardingContainer() -> Container {
    let container = Container()
    container.register(TransientService.self) { _ in TransientService() }
        .inScope(.transient)
        .implements((any ForwardedTransient).self) { $0 }
    container.register(SingletonService.self) { _ in SingletonService() }
        .inScope(.container)
        .implements((any ForwardedSingleton).self) { $0 }
    _ = must { try container.resolve(SingletonService.self) }
    _ = must { try container.resolve((any ForwardedSingleton).self) }
    return container
}

func migrationBenchmarks() {
    Benchmark("Migration: singleton, direct") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(SingletonService.self) })
        }
    } setup: {
        makeForwardingContainer()
    }

    Benchmark("Migration: singleton, forwarded") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve((any ForwardedSingleton).self) })
        }
    } setup: {
        makeForwardingContainer()
    }

    Benchmark("Migration: singleton, optional") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(SingletonService?.self) })
        }
    } setup: {
        makeForwardingContainer()
    }

    Benchmark("Migration: transient, direct") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(TransientService.self) })
        }
    } setup: {
        makeForwardingContainer()
    }

    Benchmark("Migration: transient, forwarded") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve((any ForwardedTransient).self) })
        }
    } setup: {
        makeForwardingContainer()
    }

    Benchmark("Migration: transient, optional") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(TransientService?.self) })
        }
    } setup: {
        makeForwardingContainer()
    }
}
