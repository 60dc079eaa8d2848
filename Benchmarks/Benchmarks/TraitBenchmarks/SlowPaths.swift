import Benchmark
import Dispatch
import Synchronization
import TraitInjection

// The slow paths of a trait's life (issue 15), each beside its floor in the same run:
// - a first read, a create–read–set–drop and a copy-on-write set, against the classic
//   associated-values design, a `Mutex<[ObjectIdentifier: [String: Any]]>` whose objects remove
//   their entry in `deinit`;
// - a copy-on-write set, against copying a `[String: Any]` of the same size;
// - the two-thread rows, against the same work on one thread (their ratio is the scaling);
// - a small class allocation, the least any path that makes a new identity can cost.

/// Eight typed keys, so that an owner can carry 2 or 8 traits.
enum Trait0: TraitKey { static var defaultValue: Int { 0 } }
enum Trait1: TraitKey { static var defaultValue: Int { 1 } }
enum Trait2: TraitKey { static var defaultValue: Int { 2 } }
enum Trait3: TraitKey { static var defaultValue: Int { 3 } }
enum Trait4: TraitKey { static var defaultValue: Int { 4 } }
enum Trait5: TraitKey { static var defaultValue: Int { 5 } }
enum Trait6: TraitKey { static var defaultValue: Int { 6 } }
enum Trait7: TraitKey { static var defaultValue: Int { 7 } }

/// An owner with traits of its own besides `pet`: `catchphrase`, and `Trait0`…`Trait7`.
struct ManyTraitOwner: Injected {
    var injectableIdentifier = InjectableIdentifier()

    var pet: Pet {
        get { self[trait: PetTrait.self] }
        set { self[trait: PetTrait.self] = newValue }
    }

    /// Reads `count - 1` of `Trait0`… besides `pet`, so the owner holds `count` traits.
    func storeTraits(_ count: Int) {
        blackHole(pet)
        let reads: [(ManyTraitOwner) -> Int] = [
            { $0[trait: Trait0.self] }, { $0[trait: Trait1.self] }, { $0[trait: Trait2.self] },
            { $0[trait: Trait3.self] }, { $0[trait: Trait4.self] }, { $0[trait: Trait5.self] },
            { $0[trait: Trait6.self] },
        ]
        for read in reads.prefix(count - 1) { blackHole(read(self)) }
    }
}

/// The catchphrase trait of the create–read–set–drop row.
enum CatchphraseTrait: TraitKey { static var defaultValue: String { "..." } }

/// The classic associated-values store: one lock, a dictionary per object.
final class AssociatedStore: Sendable {
    let values = Mutex<[ObjectIdentifier: [String: any Sendable]]>([:])

    func value<Value: Sendable>(_ name: String, of owner: AssociatedOwner, orStore makeDefault: () -> Value) -> Value {
        let key = ObjectIdentifier(owner)
        if let stored = values.withLock({ $0[key]?[name] }) as? Value { return stored }
        let value = makeDefault()
        values.withLock { $0[key, default: [:]][name] = value }
        return value
    }

    func set(_ name: String, of owner: AssociatedOwner, to value: any Sendable) {
        let key = ObjectIdentifier(owner)
        let replaced = values.withLock { $0[key, default: [:]].updateValue(value, forKey: name) }
        withExtendedLifetime(replaced) {}
    }

    func remove(_ key: ObjectIdentifier) {
        let removed = values.withLock { $0.removeValue(forKey: key) }
        withExtendedLifetime(removed) {}
    }
}

let associatedStore = AssociatedStore()

/// An object of the associated-values design: its `deinit` removes its entry.
final class AssociatedOwner: Sendable {
    deinit { associatedStore.remove(ObjectIdentifier(self)) }
}

/// The smallest object an identity can be: the floor of every path that makes one.
final class SmallObject {}

/// `count` live associated owners, each holding a `pet`, as the populations of the other rows.
final class AssociatedPopulation {
    let owners: [AssociatedOwner]

    init(count: Int) {
        owners = (0..<count).map { _ in AssociatedOwner() }
        for owner in owners { blackHole(associatedStore.value("pet", of: owner) { Pet.rover }) }
    }
}

/// `count` live owners holding `traits` traits each.
final class ManyTraitPopulation {
    var owners: [ManyTraitOwner]

    init(count: Int, traits: Int) {
        owners = (0..<count).map { _ in ManyTraitOwner() }
        for owner in owners { owner.storeTraits(traits) }
    }
}

/// Runs `work(thread)` on `threads` threads at once and waits for them.
func onThreads(_ threads: Int, _ work: @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: threads, execute: work)
}

/// Runs `operation` on `threads` threads at once, the iteration's operations shared between them.
func repeatOnThreads(_ threads: Int, _ benchmark: Benchmark, _ operation: @Sendable () -> Void) {
    let perThread = benchmark.scaledIterations.count / threads
    onThreads(threads) { _ in
        for _ in 0..<perThread { operation() }
    }
}

/// Runs `operation` on `threads` threads at once, each on its own part of `items` (consecutive
/// elements, wrapping round, continuing where the previous iteration stopped), the iteration's
/// operations shared between them.
func walkOnThreads<Item: Sendable>(
    _ items: [Item],
    threads: Int,
    _ benchmark: Benchmark,
    _ operation: @Sendable (Item) -> Void
) {
    let perThread = benchmark.scaledIterations.count / threads
    let start = firstIndex(benchmark, count: items.count)
    onThreads(threads) { thread in
        var index = (thread * items.count / threads + start) % items.count
        for _ in 0..<perThread {
            operation(items[index])
            index += 1
            if index == items.count { index = 0 }
        }
    }
}

func registerSlowPathBenchmarks() {
    Benchmark("Floor: small class allocation") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(SmallObject()) }
    }

    for (count, label) in [(1, "1"), (1_000_000, "1_000_000")] {
        Benchmark("Associated store first write N=\(label)") { benchmark, population in
            var fresh: [AssociatedOwner] = []
            fresh.reserveCapacity(benchmark.scaledIterations.count)
            for _ in benchmark.scaledIterations { fresh.append(AssociatedOwner()) }
            benchmark.startMeasurement()
            for owner in fresh { blackHole(associatedStore.value("pet", of: owner) { Pet.rover }) }
            benchmark.stopMeasurement()
            fresh = []
            blackHole(population)
        } setup: {
            AssociatedPopulation(count: count)
        }

        // A value type made, read once, given another trait, and dropped: the model values an app
        // creates in bulk.
        Benchmark("Trait create, read, set another, drop N=\(label)") { benchmark, population in
            for _ in benchmark.scaledIterations {
                var owner = ManyTraitOwner()
                blackHole(owner.pet)
                owner[trait: CatchphraseTrait.self] = "Cowabunga"
                blackHole(owner)
            }
            blackHole(population)
        } setup: {
            ManyTraitPopulation(count: count, traits: 1)
        }

        Benchmark("Associated store create, read, set another, drop N=\(label)") { benchmark, population in
            for _ in benchmark.scaledIterations {
                let owner = AssociatedOwner()
                blackHole(associatedStore.value("pet", of: owner) { Pet.rover })
                associatedStore.set("catchphrase", of: owner, to: "Cowabunga")
                blackHole(owner)
            }
            blackHole(population)
        } setup: {
            AssociatedPopulation(count: count)
        }

        Benchmark("Associated store set unique N=\(label)") { benchmark, population in
            var iteration = 0
            walk(population.owners, benchmark) { owner in
                associatedStore.set("pet", of: owner, to: Pet(name: petNames[iteration & 1], species: "Dog"))
                iteration += 1
            }
        } setup: {
            AssociatedPopulation(count: count)
        }
    }

    for traits in [2, 8] {
        // Copy an owner holding `traits` traits, and set one on the copy.
        Benchmark("Trait set shared (copy-on-write), \(traits) traits N=10_000") { benchmark, population in
            setPetOnCopies(of: population.owners, benchmark)
        } setup: {
            ManyTraitPopulation(count: 10_000, traits: traits)
        }

        Benchmark("Floor: copy a [String: Any] of \(traits) and set one") { benchmark, dictionary in
            var iteration = 0
            for _ in benchmark.scaledIterations {
                var copy = dictionary
                copy["pet"] = Pet(name: petNames[iteration & 1], species: "Dog")
                blackHole(copy)
                iteration += 1
            }
        } setup: { () -> [String: Any] in
            var dictionary: [String: Any] = ["pet": Pet.rover]
            for index in 1..<traits { dictionary["trait\(index)"] = index }
            return dictionary
        }
    }

    // Two threads at once, each on its own half of the population: the wall time per operation,
    // to compare with the one-thread rows of the same work. A million operations per iteration,
    // so that handing the work to the threads costs nothing measurable.
    // A million instances made on two threads, each given a trait and a first read, all alive at
    // once, then dropped: the store must be back where it started, and every allocation of the
    // measured region freed (its malloc/free balance is zero: a leaked slot, entry or value
    // shows up as a positive delta).
    let balanceConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .freeCountTotal, .mallocFreeDelta], timeUnits: .milliseconds,
        warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 5
    )
    Benchmark("Trait 1_000_000 made and dropped on 2 threads, balance", configuration: balanceConfiguration) { _ in
        let before = Injectable.storedTraitCount
        onThreads(2) { _ in
            var owners: [ManyTraitOwner] = []
            owners.reserveCapacity(500_000)
            for _ in 0..<500_000 {
                var owner = ManyTraitOwner()
                blackHole(owner.pet)
                owner[trait: CatchphraseTrait.self] = "Cowabunga"
                owners.append(owner)
            }
            owners = []
        }
        precondition(
            Injectable.storedTraitCount == before, "the store kept \(Injectable.storedTraitCount - before) values")
    }

    // The same two threads with the same arrays and no traits: what the balance row owes to
    // `concurrentPerform` and the arrays rather than to the store.
    Benchmark(
        "Floor: 1_000_000 small objects made and dropped on 2 threads, balance", configuration: balanceConfiguration
    ) { _ in
        onThreads(2) { _ in
            var objects: [SmallObject] = []
            objects.reserveCapacity(500_000)
            for _ in 0..<500_000 { objects.append(SmallObject()) }
            objects = []
        }
    }

    let threadConfiguration = Benchmark.Configuration(
        metrics: operationMetrics, timeUnits: .nanoseconds, warmupIterations: 2, scalingFactor: .mega,
        maxDuration: .seconds(3), maxIterations: 100
    )
    for threads in [1, 2] {
        Benchmark("Trait get hit, \(threads) thread(s) N=1_000_000", configuration: threadConfiguration) {
            benchmark, population in
            walkOnThreads(population.owners, threads: threads, benchmark) { blackHole($0.typedPet) }
        } setup: {
            OwnerPopulation(count: 1_000_000, reading: .typedKey)
        }

        Benchmark("Associated store get hit, \(threads) thread(s) N=1_000_000", configuration: threadConfiguration) {
            benchmark, population in
            walkOnThreads(population.owners, threads: threads, benchmark) { owner in
                blackHole(associatedStore.value("pet", of: owner) { Pet.rover })
            }
        } setup: {
            AssociatedPopulation(count: 1_000_000)
        }

        Benchmark("Trait create, read, set another, drop, \(threads) thread(s)", configuration: threadConfiguration) {
            benchmark in
            repeatOnThreads(threads, benchmark) {
                var owner = ManyTraitOwner()
                blackHole(owner.pet)
                owner[trait: CatchphraseTrait.self] = "Cowabunga"
                blackHole(owner)
            }
        }

        Benchmark(
            "Associated store create, read, set another, drop, \(threads) thread(s)", configuration: threadConfiguration
        ) { benchmark in
            repeatOnThreads(threads, benchmark) {
                let owner = AssociatedOwner()
                blackHole(associatedStore.value("pet", of: owner) { Pet.rover })
                associatedStore.set("catchphrase", of: owner, to: "Cowabunga")
                blackHole(owner)
            }
        }
    }
}
