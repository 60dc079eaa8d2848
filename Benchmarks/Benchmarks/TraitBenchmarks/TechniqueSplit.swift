import Benchmark
import LibrarySubject
import LockedSlotSubject

// The trait store's side of the technique split (`Benchmarks/README.md`): the same rows
// (`Subjects/Shared/TraitSubject.swift`) on the library as shipped and on a build with one
// technique swapped for its plain baseline, in the same run:
// - "baseline two-allocation slot": `TraitSlot` a class holding a `Locked<TraitEntries>`.

/// What each build in the split offers.
protocol TraitSplitSubject: Sendable {
    init()
    func storedRead(_ index: Int) -> String
    func createReadSetDrop() -> Int
    func createAndDrop() -> Int
}

extension LibrarySubject.TraitSubject: TraitSplitSubject {}
extension LockedSlotSubject.TraitSubject: TraitSplitSubject {}

func registerTraitSplitBenchmarks() {
    let threadConfiguration = Benchmark.Configuration(
        metrics: operationMetrics, timeUnits: .nanoseconds, warmupIterations: 2, scalingFactor: .mega,
        maxDuration: .seconds(3), maxIterations: 100
    )
    func rows<Subject: TraitSplitSubject>(_ label: String, _: Subject.Type) {
        Benchmark("Split stored read: \(label)") { benchmark, subject in
            for index in benchmark.scaledIterations { blackHole(subject.storedRead(index)) }
        } setup: {
            Subject()
        }
        Benchmark("Split create, read, set, drop: \(label)") { benchmark, subject in
            for _ in benchmark.scaledIterations { blackHole(subject.createReadSetDrop()) }
        } setup: {
            Subject()
        }
        Benchmark("Split create and drop, no trait: \(label)") { benchmark, subject in
            for _ in benchmark.scaledIterations { blackHole(subject.createAndDrop()) }
        } setup: {
            Subject()
        }
        Benchmark("Split create, read, set, drop, 2 threads: \(label)", configuration: threadConfiguration) {
            benchmark,
            subject in
            repeatOnThreads(2, benchmark) { blackHole(subject.createReadSetDrop()) }
        } setup: {
            Subject()
        }
    }
    rows("TraitInjection", LibrarySubject.TraitSubject.self)
    rows("baseline two-allocation slot", LockedSlotSubject.TraitSubject.self)
}
