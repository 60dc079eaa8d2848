import Benchmark
import Dispatch
import Swinject
import TraitInjection

#if FACTORY
    import FactoryKit
#endif

// Throughput: cached singletons resolved the same number of times per thread, on one thread and
// on two at once, each thread its own singleton. With perfect scaling the two-thread iteration
// takes as long as the one-thread one. The floor retains an object the same number of times.

/// Resolutions per thread in one iteration of the scaling benchmarks: enough that starting the
/// second thread is a small part of an iteration.
let scalingOperations = 100_000

/// Runs `scalingOperations` resolves on each of `threads` threads at once: thread 0 resolves with
/// `first`, thread 1 with `second`. Inlined into each caller, so the loops call the container
/// directly.
@inline(__always)
func onScalingThreads<First, Second>(
    _ threads: Int,
    first: @Sendable () -> First,
    second: @Sendable () -> Second
) {
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        if thread == 0 {
            for _ in 0..<scalingOperations { blackHole(first()) }
        } else {
            for _ in 0..<scalingOperations { blackHole(second()) }
        }
    }
}

/// Resolves cached singletons on each of `threads` threads at once: thread 0 resolves
/// `SingletonService`, thread 1 `OtherSingletonService`, or `SingletonService` too if `shared`.
func resolveSingletons(_ container: TraitInjection.Container, threads: Int, shared: Bool = false) {
    if shared {
        onScalingThreads(threads) {
            must { try container.resolve(SingletonService.self) }
        } second: {
            must { try container.resolve(SingletonService.self) }
        }
    } else {
        onScalingThreads(threads) {
            must { try container.resolve(SingletonService.self) }
        } second: {
            must { try container.resolve(OtherSingletonService.self) }
        }
    }
}

/// `resolveSingletons` with the plain baseline.
func resolvePlainSingletons(_ container: PlainContainer, threads: Int) {
    onScalingThreads(threads) {
        must { try container.resolve(SingletonService.self) }
    } second: {
        must { try container.resolve(OtherSingletonService.self) }
    }
}

/// `resolveSingletons` with a synchronized Swinject container.
func resolveSwinjectSingletons(_ container: SynchronizedSwinject, threads: Int) {
    onScalingThreads(threads) {
        container.resolver.resolve(SingletonService.self)!
    } second: {
        container.resolver.resolve(OtherSingletonService.self)!
    }
}

#if FACTORY
    /// `resolveSingletons` with Factory.
    func resolveFactorySingletons(_ container: FactoryKit.Container, threads: Int) {
        onScalingThreads(threads) {
            container.singletonService()
        } second: {
            container.otherSingletonService()
        }
    }
#endif

/// The same loops with no container: each thread takes a new strong reference to an object and
/// hands it to an opaque call, as a singleton resolve does, so only its reference count is written.
/// Both threads taking the same one bounds what any container can reach when two threads resolve
/// the same singleton.
func retainObjects(_ objects: [any AnyObject & Sendable], threads: Int, shared: Bool = false) {
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        let object = objects[shared ? 0 : thread]
        for _ in 0..<scalingOperations {
            // An explicit retain, released after the opaque call: the optimiser can remove neither.
            blackHole(Unmanaged.passUnretained(object).retain().takeRetainedValue())
        }
    }
}

func scalingBenchmarks() {
    let scaling = Benchmark.Configuration(metrics: [.wallClock], timeUnits: .microseconds, scalingFactor: .one)

    Benchmark("Scaling: resolve a singleton 100,000x on 1 thread", configuration: scaling) { _, container in
        resolveSingletons(container, threads: 1)
    } setup: {
        makeWarmContainer()
    }

    Benchmark("Scaling: resolve a singleton 100,000x on each of 2 threads", configuration: scaling) { _, container in
        resolveSingletons(container, threads: 2)
    } setup: {
        makeWarmContainer()
    }

    Benchmark("Scaling: resolve the same singleton 100,000x on each of 2 threads", configuration: scaling) {
        _,
        container in
        resolveSingletons(container, threads: 2, shared: true)
    } setup: {
        makeWarmContainer()
    }

    Benchmark("Scaling: plain baseline, a singleton 100,000x on 1 thread", configuration: scaling) { _, container in
        resolvePlainSingletons(container, threads: 1)
    } setup: {
        makeWarmPlainContainer()
    }

    Benchmark("Scaling: plain baseline, a singleton 100,000x on each of 2 threads", configuration: scaling) {
        _,
        container in
        resolvePlainSingletons(container, threads: 2)
    } setup: {
        makeWarmPlainContainer()
    }

    Benchmark("Scaling: Swinject, a singleton 100,000x on 1 thread", configuration: scaling) { _, container in
        resolveSwinjectSingletons(container, threads: 1)
    } setup: {
        SynchronizedSwinject()
    }

    Benchmark("Scaling: Swinject, a singleton 100,000x on each of 2 threads", configuration: scaling) {
        _,
        container in
        resolveSwinjectSingletons(container, threads: 2)
    } setup: {
        SynchronizedSwinject()
    }

    #if FACTORY
        Benchmark("Scaling: Factory, a singleton 100,000x on 1 thread", configuration: scaling) { _, container in
            resolveFactorySingletons(container, threads: 1)
        } setup: {
            makeWarmFactoryContainer()
        }

        Benchmark("Scaling: Factory, a singleton 100,000x on each of 2 threads", configuration: scaling) {
            _,
            container in
            resolveFactorySingletons(container, threads: 2)
        } setup: {
            makeWarmFactoryContainer()
        }
    #endif

    Benchmark("Scaling: retain an object 100,000x on 1 thread", configuration: scaling) { _, objects in
        retainObjects(objects, threads: 1)
    } setup: {
        [SingletonService(), OtherSingletonService()] as [any AnyObject & Sendable]
    }

    Benchmark("Scaling: retain an object 100,000x on each of 2 threads", configuration: scaling) { _, objects in
        retainObjects(objects, threads: 2)
    } setup: {
        [SingletonService(), OtherSingletonService()] as [any AnyObject & Sendable]
    }

    Benchmark("Scaling: retain the same object 100,000x on each of 2 threads", configuration: scaling) { _, objects in
        retainObjects(objects, threads: 2, shared: true)
    } setup: {
        [SingletonService(), OtherSingletonService()] as [any AnyObject & Sendable]
    }
}
