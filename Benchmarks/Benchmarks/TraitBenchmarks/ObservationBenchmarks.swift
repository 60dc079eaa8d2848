import Benchmark
import Observation
import TraitInjection

// Traits in Observation (issue 28), each row beside its reference in the same run:
// - an observed trait read, against a read of a stored property of an `@Observable` class plus a
//   trait read of a plain class (the bound), both outside and inside a tracking;
// - an observed trait set, against a stored property set plus a plain class's trait set;
// - a plain class's trait read and set, which must not pay for any of it, and its first read,
//   which checks its type once.
// The rows with structs (`Trait get hit`, `first read`, `set unique`, `copy-on-write`) are in
// TraitBenchmarks.swift.

/// An `@Observable` model carrying the `pet` trait, with a stored property of the same type.
@Observable
final class ObservedOwner: Injected {
    @ObservationIgnored var injectableIdentifier = InjectableIdentifier()
    var storedPet = Pet.rover

    var pet: Pet {
        get { self[trait: PetTrait.self] }
        set { self[trait: PetTrait.self] = newValue }
    }
}

/// A class that is not `Observable`, carrying the same trait.
final class PlainOwner: Injected {
    var injectableIdentifier = InjectableIdentifier()

    var pet: Pet {
        get { self[trait: PetTrait.self] }
        set { self[trait: PetTrait.self] = newValue }
    }
}

/// `count` of each kind of owner, each of which has read its trait once.
final class ObservationPopulation {
    let observed: [ObservedOwner]
    let plain: [PlainOwner]

    init(count: Int) {
        observed = (0..<count).map { _ in ObservedOwner() }
        plain = (0..<count).map { _ in PlainOwner() }
        for owner in observed { blackHole(owner.pet) }
        for owner in plain { blackHole(owner.pet) }
    }
}

/// Runs `body` inside `withObservationTracking`, as a SwiftUI body runs, when `tracked`.
@inline(__always)
func tracking(_ tracked: Bool, _ body: () -> Void) {
    if tracked {
        withObservationTracking(body) {}
    } else {
        body()
    }
}

/// Measures the first read of `pet` by 1,000 owners made before the measurement and dropped
/// after it, as `Trait get first read` does for structs.
func measureFirstReads<Owner: Injected>(_ benchmark: Benchmark, _ make: () -> Owner, _ read: (Owner) -> Pet) {
    var fresh: [Owner] = []
    fresh.reserveCapacity(benchmark.scaledIterations.count)
    for _ in benchmark.scaledIterations { fresh.append(make()) }
    benchmark.startMeasurement()
    for owner in fresh { blackHole(read(owner)) }
    benchmark.stopMeasurement()
    blackHole(fresh)
}

func registerObservationBenchmarks() {
    // The first read of a plain class finds out that it is not `Observable`; of an observed one,
    // makes the trait's registrar.
    Benchmark("Plain class trait get first read") { benchmark in
        measureFirstReads(benchmark, PlainOwner.init) { $0.pet }
    }
    Benchmark("Observed trait get first read") { benchmark in
        measureFirstReads(benchmark, ObservedOwner.init) { $0.pet }
    }

    for (count, label) in [(1, "1"), (10_000, "10_000")] {
        for tracked in [false, true] {
            let within = tracked ? ", tracked" : ""
            Benchmark("Observed trait get hit\(within) N=\(label)") { benchmark, population in
                tracking(tracked) { walk(population.observed, benchmark) { blackHole($0.pet) } }
            } setup: {
                ObservationPopulation(count: count)
            }

            Benchmark("Observable stored property get + plain class trait get hit\(within) N=\(label)") {
                benchmark,
                population in
                tracking(tracked) {
                    var index = firstIndex(benchmark, count: count)
                    for _ in benchmark.scaledIterations {
                        blackHole(population.observed[index].storedPet)
                        blackHole(population.plain[index].pet)
                        index += 1
                        if index == count { index = 0 }
                    }
                }
            } setup: {
                ObservationPopulation(count: count)
            }
        }

        Benchmark("Plain class trait get hit N=\(label)") { benchmark, population in
            walk(population.plain, benchmark) { blackHole($0.pet) }
        } setup: {
            ObservationPopulation(count: count)
        }

        Benchmark("Observed trait set N=\(label)") { benchmark, population in
            var iteration = 0
            walk(population.observed, benchmark) { owner in
                owner.pet.name = petNames[iteration & 1]
                iteration += 1
            }
        } setup: {
            ObservationPopulation(count: count)
        }

        Benchmark("Observable stored property set + plain class trait set N=\(label)") { benchmark, population in
            var index = firstIndex(benchmark, count: count)
            for iteration in benchmark.scaledIterations {
                population.observed[index].storedPet.name = petNames[iteration & 1]
                population.plain[index].pet.name = petNames[iteration & 1]
                index += 1
                if index == count { index = 0 }
            }
        } setup: {
            ObservationPopulation(count: count)
        }

        Benchmark("Plain class trait set N=\(label)") { benchmark, population in
            var iteration = 0
            walk(population.plain, benchmark) { owner in
                owner.pet.name = petNames[iteration & 1]
                iteration += 1
            }
        } setup: {
            ObservationPopulation(count: count)
        }
    }
}
