import Benchmark
import TraitInjection

// Every per-operation benchmark does `scalingFactor` (1,000) operations per measured iteration, so
// the scaled results read as time and mallocs per operation. Each benchmark runs in its own
// process, and its population of live instances is built in its setup closure, outside the
// measurements.
//
// Reads and writes walk the whole population, one instance after the other (wrapping around), so
// at N = 1,000,000 they pay for a store, and a floor dictionary, far larger than the caches.

/// The population sizes, each with the label used in benchmark names.
let populationSizes: [(count: Int, label: String)] = [
    (1, "1"),
    (10_000, "10_000"),
    (1_000_000, "1_000_000"),
]

/// The names the set benchmarks alternate between, so every write changes the value.
let petNames = ["Coco", "Bubba"]

/// The metrics of the per-operation benchmarks.
var operationMetrics: [BenchmarkMetric] { [.wallClock, .cpuTotal, .mallocCountTotal, .freeCountTotal, .throughput] }

/// The first population index an iteration touches, continuing where the previous one stopped.
func firstIndex(_ benchmark: Benchmark, count: Int) -> Int {
    (benchmark.currentIteration &* benchmark.scaledIterations.count) % count
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: operationMetrics,
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )

    for (count, label) in populationSizes {
        registerReadBenchmarks(count: count, label: label)
        registerWriteBenchmarks(count: count, label: label)
    }
    registerCreateAndDropBenchmark()
    registerSlowPathBenchmarks()
    registerObservationBenchmarks()
}

/// Copies consecutive owners (as `walk` does) and sets the pet's name on each copy: a
/// copy-on-write set, whose dropped copy is part of the measured operation.
func setPetOnCopies<Owner: PetOwner>(of owners: [Owner], _ benchmark: Benchmark) {
    var iteration = 0
    walk(owners, benchmark) { owner in
        var copy = owner
        copy.pet.name = petNames[iteration & 1]
        blackHole(copy)
        iteration += 1
    }
}

/// An owner whose pet the write benchmarks set.
protocol PetOwner {
    var pet: Pet { get set }
}

extension Owner: PetOwner {}
extension ManyTraitOwner: PetOwner {}

/// Runs `operation` once per scaled iteration on consecutive elements of `items`, wrapping round,
/// starting where the previous iteration stopped.
@inline(__always)
func walk<Item>(_ items: [Item], _ benchmark: Benchmark, _ operation: (Item) -> Void) {
    var index = firstIndex(benchmark, count: items.count)
    for _ in benchmark.scaledIterations {
        operation(items[index])
        index += 1
        if index == items.count { index = 0 }
    }
}

func registerReadBenchmarks(count: Int, label: String) {
    Benchmark("Trait get hit (string API) N=\(label)") { benchmark, population in
        walk(population.owners, benchmark) { blackHole($0.pet) }
    } setup: {
        OwnerPopulation(count: count, reading: .stringAPI)
    }

    Benchmark("Trait get hit (typed key) N=\(label)") { benchmark, population in
        walk(population.owners, benchmark) { blackHole($0.typedPet) }
    } setup: {
        OwnerPopulation(count: count, reading: .typedKey)
    }

    Benchmark("Locked dictionary floor N=\(label)") { benchmark, floor in
        walk(floor.owners, benchmark) { blackHole(floor.pet(of: $0)) }
    } setup: {
        LockedDictionaryFloor(count: count)
    }

    // Only the first reads are measured: each iteration creates 1,000 fresh owners before
    // `startMeasurement()` and drops them (which removes their values) after `stopMeasurement()`.
    Benchmark("Trait get first read N=\(label)") { benchmark, population in
        var fresh: [Owner] = []
        fresh.reserveCapacity(benchmark.scaledIterations.count)
        for _ in benchmark.scaledIterations {
            fresh.append(Owner())
        }
        benchmark.startMeasurement()
        for owner in fresh {
            blackHole(owner.pet)
        }
        benchmark.stopMeasurement()
        blackHole(fresh)  // Keeps the fresh owners, and their stored values, alive until here.
        blackHole(population)
    } setup: {
        OwnerPopulation(count: count, reading: .stringAPI)
    }
}

func registerWriteBenchmarks(count: Int, label: String) {
    // Each write is a read-modify-write, `owner.pet.name = …`, through the string API.
    Benchmark("Trait set unique N=\(label)") { benchmark, population in
        // Take the array out of the population so it is uniquely referenced and mutated in place.
        var owners: [Owner] = []
        swap(&owners, &population.owners)
        var index = firstIndex(benchmark, count: count)
        for iteration in benchmark.scaledIterations {
            owners[index].pet.name = petNames[iteration & 1]
            index += 1
            if index == count { index = 0 }
        }
        swap(&owners, &population.owners)
    } setup: {
        OwnerPopulation(count: count, reading: .stringAPI)
    }

    // Each write copies an owner, so the copy's identifier is shared and the write gives it a
    // fresh identifier with a copy of its traits; dropping the copy then removes that slot. Both
    // are part of the measured operation.
    Benchmark("Trait set shared (copy-on-write) N=\(label)") { benchmark, population in
        setPetOnCopies(of: population.owners, benchmark)
    } setup: {
        OwnerPopulation(count: count, reading: .stringAPI)
    }
}

func registerCreateAndDropBenchmark() {
    // Scaled per instance (1,000,000 per iteration): creating an owner, reading its two traits
    // (storing their defaults), and, after all are created, dropping them all.
    Benchmark(
        "Create and drop 1M instances with two traits",
        configuration: .init(
            metrics: [
                .wallClock, .cpuTotal, .mallocCountTotal, .freeCountTotal, .mallocBytesCount, .mallocFreeDelta,
                .memoryLeakedBytes, .peakMemoryResident, .peakMemoryResidentDelta, .throughput,
            ],
            timeUnits: .nanoseconds,
            warmupIterations: 1,
            scalingFactor: .mega,
            maxDuration: .seconds(30),
            maxIterations: 5
        )
    ) { benchmark in
        let storedBefore = Injectable.storedTraitCount
        var owners: [Owner] = []
        owners.reserveCapacity(benchmark.scaledIterations.count)
        for _ in benchmark.scaledIterations {
            let owner = Owner()
            blackHole(owner.pet)
            blackHole(owner.typedPet)
            owners.append(owner)
        }
        precondition(
            Injectable.storedTraitCount == storedBefore + 2 * owners.count,
            "expected \(2 * owners.count) more stored traits, store holds \(Injectable.storedTraitCount)"
        )
        owners = []
        precondition(
            Injectable.storedTraitCount == storedBefore,
            "stored traits did not return to \(storedBefore) after dropping: \(Injectable.storedTraitCount)"
        )
    }
}
