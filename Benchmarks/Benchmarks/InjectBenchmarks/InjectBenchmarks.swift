import Benchmark
import Synchronization
import TraitInjection

// `@Inject` after its first access, beside its floor: a stored property holding the same
// reference, read under one uncontended lock. Each measured iteration does 1,000 reads
// (`scalingFactor: .kilo`), so results read per access.

final class Service: Sendable {}

/// A consumer whose dependencies are injected.
struct Consumer: Sendable {
    @Inject var service: Service
    @WeakInject var weakService: Service?
}

/// The floor: the same reference in a stored property, read under one uncontended lock.
final class StoredPropertyFloor: Sendable {
    let lock = Mutex(())
    let service: Service

    init(service: Service) { self.service = service }

    func read() -> Service { lock.withLock { _ in service } }
}

/// A consumer whose properties have been accessed once, and the service they hold.
func resolvedConsumer() -> (consumer: Consumer, service: Service) {
    let container = Container()
    let service = Service()
    container.register(Service.self, instance: service)
    let consumer = Consumer()
    do {
        try container.autoInject(into: consumer)
    } catch {
        fatalError("\(error)")
    }
    return (consumer, service)
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

    Benchmark("@Inject access after the first") { benchmark, resolved in
        for _ in benchmark.scaledIterations {
            blackHole(resolved.consumer.service)
        }
    } setup: {
        resolvedConsumer()
    }

    Benchmark("@Inject floor: stored property + uncontended lock") { benchmark, floor in
        for _ in benchmark.scaledIterations {
            blackHole(floor.read())
        }
    } setup: {
        StoredPropertyFloor(service: Service())
    }

    Benchmark("@WeakInject access after the first") { benchmark, resolved in
        for _ in benchmark.scaledIterations {
            blackHole(resolved.consumer.weakService)
        }
    } setup: {
        resolvedConsumer()
    }
}
