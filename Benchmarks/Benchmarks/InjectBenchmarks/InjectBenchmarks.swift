import Benchmark
import Synchronization
import TraitInjection

// `@Inject` after its first access, beside its floor: a stored property holding the same
// reference, read under one uncontended lock; and a `Lazy` after its first access. Each measured iteration does 1,000 reads
// (`scalingFactor: .kilo`), so results read per access.

final class Service: Sendable {}

/// The service held weakly. A different object from `Service`: an object with a weak reference
/// to it keeps its reference count in a side table, which makes every retain of it slower, and
/// the `@Inject` row must not pay for that.
final class WeaklyHeldService: Sendable {}

/// A consumer whose dependencies are injected.
struct Consumer: Sendable {
    @Inject var service: Service
    @WeakInject var weakService: WeaklyHeldService?
}

/// The floor: the same reference in a stored property, read under one uncontended lock.
final class StoredPropertyFloor: Sendable {
    let lock = Mutex(())
    let service: Service

    init(service: Service) { self.service = service }

    func read() -> Service { lock.withLock { _ in service } }
}

/// A consumer of a `Lazy`, through `@Inject`.
struct LazyConsumer: Sendable {
    @Inject var service: Lazy<Service>
}

/// A `Lazy` accessed once, a consumer whose `Lazy` property was accessed once, and the container
/// they resolve from (a `Lazy` holds it weakly).
func resolvedLazy() -> (lazy: Lazy<Service>, consumer: LazyConsumer, container: Container) {
    let container = Container()
    container.register(Service.self) { _ in Service() }
    do {
        let lazy = try container.resolve(Lazy<Service>.self)
        _ = try lazy.value
        let consumer = LazyConsumer()
        try container.autoInject(into: consumer)
        _ = try consumer.service.value
        return (lazy, consumer, container)
    } catch {
        fatalError("\(error)")
    }
}

/// The value of `body`, which does not throw here.
func must<Value>(_ body: () throws -> Value) -> Value {
    do {
        return try body()
    } catch {
        fatalError("\(error)")
    }
}

/// A consumer whose properties have been accessed once, and the services they hold.
func resolvedConsumer() -> (consumer: Consumer, services: (Service, WeaklyHeldService)) {
    let container = Container()
    let services = (Service(), WeaklyHeldService())
    container.register(Service.self, instance: services.0)
    container.register(WeaklyHeldService.self, instance: services.1)
    let consumer = Consumer()
    do {
        try container.autoInject(into: consumer)
    } catch {
        fatalError("\(error)")
    }
    return (consumer, services)
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

    Benchmark("Lazy access after the first") { benchmark, resolved in
        for _ in benchmark.scaledIterations {
            blackHole(must { try resolved.lazy.value })
        }
    } setup: {
        resolvedLazy()
    }

    Benchmark("@Inject Lazy property: value after the first") { benchmark, resolved in
        for _ in benchmark.scaledIterations {
            blackHole(must { try resolved.consumer.service.value })
        }
    } setup: {
        resolvedLazy()
    }

    Benchmark("@WeakInject access after the first") { benchmark, resolved in
        for _ in benchmark.scaledIterations {
            blackHole(resolved.consumer.weakService)
        }
    } setup: {
        resolvedConsumer()
    }
}
