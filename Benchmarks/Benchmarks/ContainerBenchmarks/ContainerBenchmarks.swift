import Benchmark
import Swinject
import TraitInjection

#if FACTORY
    import FactoryKit
#endif

// Container resolution, side by side in one run: TraitInjection, the plain baseline
// (`PlainContainer.swift`), Swinject 2.10.0, Factory 3.2.2 (where its copy is, see Package.swift)
// and a floor (the objects built by hand, or a locked dictionary of singletons), each registering
// the same services the same way (`*Fixtures.swift`). Each measured iteration does 1,000
// resolutions (`scalingFactor: .kilo`), so results read per resolution.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 10_000,
        // An allocation check registers only the rows configured `.limited(_:)`.
        skip: isAllocationCheck
    )

    transientRows()
    singletonRows()
    graphRows()
    oneArgumentRows()
    namedRows()
    chainRows()
    scalingBenchmarks()
    asyncBenchmarks()
    autoregistrationBenchmarks()
    lazyBenchmarks()
    traceBenchmarks()
    migrationBenchmarks()
    declaredRows()
}

/// A transient service with no dependencies.
func transientRows() {
    Benchmark("Resolve transient: TraitInjection", configuration: .limited(.transient)) { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(TransientService.self) })
        }
    } setup: {
        makeTraitContainer()
    }

    Benchmark("Resolve transient: plain baseline") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(TransientService.self) })
        }
    } setup: {
        makePlainContainer()
    }

    Benchmark("Resolve transient: Swinject") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(TransientService.self)!)
        }
    } setup: {
        makeSwinjectContainer()
    }

    #if FACTORY
        Benchmark("Resolve transient: Factory") { benchmark, container in
            for _ in benchmark.scaledIterations {
                blackHole(container.transientService())
            }
        } setup: {
            FactoryKit.Container()
        }
    #endif

    Benchmark("Resolve transient: by hand") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(TransientService())
        }
    }
}

/// A `.container` singleton, made before.
func singletonRows() {
    Benchmark("Resolve singleton: TraitInjection", configuration: .limited(.singleton)) { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(SingletonService.self) })
        }
    } setup: {
        makeWarmContainer()
    }

    Benchmark("Resolve singleton: plain baseline") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(SingletonService.self) })
        }
    } setup: {
        makeWarmPlainContainer()
    }

    Benchmark("Resolve singleton: Swinject") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(SingletonService.self)!)
        }
    } setup: {
        makeWarmSwinjectContainer()
    }

    #if FACTORY
        Benchmark("Resolve singleton: Factory") { benchmark, container in
            for _ in benchmark.scaledIterations {
                blackHole(container.singletonService())
            }
        } setup: {
            makeWarmFactoryContainer()
        }
    #endif

    Benchmark("Resolve singleton: locked dictionary floor") { benchmark, floor in
        for _ in benchmark.scaledIterations {
            blackHole(floor.resolve())
        }
    } setup: {
        SingletonFloor()
    }
}

/// The 4-object graph: a root over two transient middles sharing one graph-scoped leaf.
func graphRows() {
    Benchmark("Resolve 4-object graph: TraitInjection", configuration: .limited(.graph)) { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(Root.self) })
        }
    } setup: {
        checkingGraph(makeTraitContainer()) { try $0.resolve(Root.self) }
    }

    Benchmark("Resolve 4-object graph: plain baseline") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(Root.self) })
        }
    } setup: {
        checkingGraph(makePlainContainer()) { try $0.resolve(Root.self) }
    }

    Benchmark("Resolve 4-object graph: Swinject") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(Root.self)!)
        }
    } setup: {
        checkingGraph(makeSwinjectContainer()) { $0.resolve(Root.self)! }
    }

    #if FACTORY
        Benchmark("Resolve 4-object graph: Factory") { benchmark, container in
            for _ in benchmark.scaledIterations {
                blackHole(container.root())
            }
        } setup: {
            checkingGraph(FactoryKit.Container()) { $0.root() }
        }
    #endif

    Benchmark("Resolve 4-object graph: by hand") { benchmark in
        for _ in benchmark.scaledIterations {
            let leaf = Leaf()
            blackHole(Root(left: Middle(leaf: leaf), right: Middle(leaf: leaf)))
        }
    }
}

/// A service registered with one `Int` argument in the default scope, resolved with `5`. The plain
/// baseline takes no arguments.
func oneArgumentRows() {
    Benchmark("Resolve one argument: TraitInjection", configuration: .limited(.oneArgument)) {
        benchmark,
        container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(Greeter.self, arguments: greeterArgument) })
        }
    } setup: {
        makeTraitContainer()
    }

    Benchmark("Resolve one argument: Swinject") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(container.resolve(Greeter.self, argument: greeterArgument)!)
        }
    } setup: {
        makeSwinjectContainer()
    }

    #if FACTORY
        Benchmark("Resolve one argument: Factory") { benchmark, container in
            for _ in benchmark.scaledIterations {
                blackHole(container.greeter(greeterArgument))
            }
        } setup: {
            FactoryKit.Container()
        }
    #endif

    Benchmark("Resolve one argument: by hand") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Greeter(greeterArgument))
        }
    }
}

/// Named lookups: one of N names of one type, all names of equal length. Flat in N. Factory keys a
/// registration by its property, and has no names.
func namedRows() {
    for count in [10, 10_000] {
        let limit: LimitedRow = count == 10 ? .namedOfTen : .namedOfTenThousand
        Benchmark("Resolve named, one of \(count) names: TraitInjection", configuration: .limited(limit)) {
            benchmark,
            container in
            let name = middleName(of: count)
            for _ in benchmark.scaledIterations {
                blackHole(must { try container.resolve(TransientService.self, name: name) })
            }
        } setup: {
            makeNamedContainer(count: count)
        }

        Benchmark("Resolve named, one of \(count) names: plain baseline") { benchmark, container in
            let name = middleName(of: count)
            for _ in benchmark.scaledIterations {
                blackHole(must { try container.resolve(TransientService.self, name: name) })
            }
        } setup: {
            makeNamedPlainContainer(count: count)
        }

        Benchmark("Resolve named, one of \(count) names: Swinject") { benchmark, container in
            let name = middleName(of: count)
            for _ in benchmark.scaledIterations {
                blackHole(container.resolve(TransientService.self, name: name)!)
            }
        } setup: {
            makeNamedSwinjectContainer(count: count)
        }
    }
}

/// Depth: a chain of 50 transient services, each resolving the next by name. Per resolution of
/// the chain's head (50 resolves).
func chainRows() {
    let depth = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )

    Benchmark("Resolve a chain of 50: TraitInjection", configuration: depth) { _, container in
        blackHole(must { try container.resolve(Link.self, name: linkName(0)) })
    } setup: {
        makeChainContainer()
    }

    Benchmark("Resolve a chain of 50: plain baseline", configuration: depth) { _, container in
        blackHole(must { try container.resolve(Link.self, name: linkName(0)) })
    } setup: {
        makeChainPlainContainer()
    }

    Benchmark("Resolve a chain of 50: Swinject", configuration: depth) { _, container in
        blackHole(container.resolve(Link.self, name: linkName(0))!)
    } setup: {
        makeChainSwinjectContainer()
    }
}
