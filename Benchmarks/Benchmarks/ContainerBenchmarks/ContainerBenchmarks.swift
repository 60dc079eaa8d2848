import Benchmark
import DictionarySnapshotSubject
import Dispatch
import LibrarySubject
import LockedAsyncLookupSubject
import LockedRegistrySubject
import MutexCellSubject
import NewContextSubject
import Swinject
import Synchronization
import TraitInjection
import UncheckedExclusivitySubject

// Container resolution, side by side with Swinject 2.10.0 and with the code a container replaces
// (a locked dictionary of singletons, a graph built by hand), in one run. Each measured
// iteration does 1,000 resolutions (`scalingFactor: .kilo`), so results read per resolution.

final class Leaf: @unchecked Sendable {}

/// The transient service: no dependencies.
final class TransientService: @unchecked Sendable {}

/// The `.container` singleton.
final class SingletonService: @unchecked Sendable {
    /// A cache line of state, so that two singletons never share one: the threads of the scaling
    /// benchmarks each retain their own singleton, and two 16-byte objects side by side would
    /// make their reference counts contend (false sharing) whatever the container does.
    var state: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}

/// A second `.container` singleton, for the second thread of the scaling benchmarks.
final class OtherSingletonService: @unchecked Sendable {
    var state: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}

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
    container.register(OtherSingletonService.self) { _ in OtherSingletonService() }.inScope(.container)
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

/// The same registrations in the plain baseline.
func makePlainContainer() -> PlainContainer {
    let container = PlainContainer()
    container.register(TransientService.self, scope: .transient) { _ in TransientService() }
    container.register(SingletonService.self, scope: .container) { _ in SingletonService() }
    container.register(OtherSingletonService.self, scope: .container) { _ in OtherSingletonService() }
    container.register(Leaf.self) { _ in Leaf() }
    container.register(Middle.self, scope: .transient) { r in Middle(leaf: try r.resolve(Leaf.self)) }
    container.register(Root.self) { r in
        Root(left: try r.resolve(Middle.self), right: try r.resolve(Middle.self))
    }
    return container
}

/// One link of the depth benchmarks' chain.
final class Link: @unchecked Sendable {
    let next: Link?
    init(next: Link?) { self.next = next }
}

/// The length of the depth benchmarks' chain: each resolve of its head resolves every link.
let chainLength = 50

/// The name of link `index` of the chain: `link-07`.
func linkName(_ index: Int) -> String {
    index < 10 ? "link-0\(index)" : "link-\(index)"
}

/// A chain of `chainLength` transient links, each resolving the next by name.
func makeChainContainer() -> TraitInjection.Container {
    let container = TraitInjection.Container()
    for index in 0..<chainLength {
        let next = index + 1 < chainLength ? linkName(index + 1) : nil
        container.register(Link.self, name: linkName(index)) { r in
            Link(next: try next.map { try r.resolve(Link.self, name: $0) })
        }
        .inScope(.transient)
    }
    return container
}

/// The same chain in Swinject.
func makeChainSwinjectContainer() -> Swinject.Container {
    let container = Swinject.Container()
    for index in 0..<chainLength {
        let next = index + 1 < chainLength ? linkName(index + 1) : nil
        container.register(Link.self, name: linkName(index)) { r in
            Link(next: next.map { r.resolve(Link.self, name: $0)! })
        }
        .inObjectScope(.transient)
    }
    return container
}

/// The same chain in the plain baseline.
func makeChainPlainContainer() -> PlainContainer {
    let container = PlainContainer()
    for index in 0..<chainLength {
        let next = index + 1 < chainLength ? linkName(index + 1) : nil
        container.register(Link.self, name: linkName(index), scope: .transient) { r in
            Link(next: try next.map { try r.resolve(Link.self, name: $0) })
        }
    }
    return container
}

/// The same named registrations in the plain baseline.
func makeNamedPlainContainer(count: Int) -> PlainContainer {
    let container = PlainContainer()
    for index in 0..<count {
        container.register(TransientService.self, name: namedKey(index), scope: .transient) { _ in
            TransientService()
        }
    }
    return container
}

/// Two cached singletons in the plain baseline.
func makeWarmPlainContainer() -> PlainContainer {
    let container = makePlainContainer()
    _ = must { try container.resolve(SingletonService.self) }
    _ = must { try container.resolve(OtherSingletonService.self) }
    return container
}

/// `resolveSingletons` with the plain baseline.
func resolvePlainSingletons(_ container: PlainContainer, threads: Int) {
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        if thread == 0 {
            for _ in 0..<scalingOperations {
                blackHole(must { try container.resolve(SingletonService.self) })
            }
        } else {
            for _ in 0..<scalingOperations {
                blackHole(must { try container.resolve(OtherSingletonService.self) })
            }
        }
    }
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

/// Resolutions per thread in one iteration of the scaling benchmarks: enough that starting the
/// second thread is a small part of an iteration.
let scalingOperations = 100_000

/// Resolves `scalingOperations` cached singletons on each of `threads` threads at once: thread 0
/// resolves `SingletonService`, thread 1 `OtherSingletonService`, or `SingletonService` too if
/// `shared`.
func resolveSingletons(_ container: TraitInjection.Container, threads: Int, shared: Bool = false) {
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        if thread == 0 || shared {
            for _ in 0..<scalingOperations {
                blackHole(must { try container.resolve(SingletonService.self) })
            }
        } else {
            for _ in 0..<scalingOperations {
                blackHole(must { try container.resolve(OtherSingletonService.self) })
            }
        }
    }
}

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

/// A container with `count` named registrations of one type, names of equal length.
func makeNamedContainer(count: Int) -> TraitInjection.Container {
    let container = TraitInjection.Container()
    for index in 0..<count {
        container.register(TransientService.self, name: namedKey(index)) { _ in TransientService() }
            .inScope(.transient)
    }
    return container
}

/// The same registrations in Swinject.
func makeNamedSwinjectContainer(count: Int) -> Swinject.Container {
    let container = Swinject.Container()
    for index in 0..<count {
        container.register(TransientService.self, name: namedKey(index)) { _ in TransientService() }
            .inObjectScope(.transient)
    }
    return container
}

/// `service-00042`: every name has the same length.
func namedKey(_ index: Int) -> String {
    let digits = String(index)
    return "service-" + String(repeating: "0", count: 5 - digits.count) + digits
}

/// The name resolved by the named-lookup benchmarks: the middle one.
func middleName(of count: Int) -> String { namedKey(count / 2) }

/// Two cached singletons, created before the scaling benchmarks measure anything.
func makeWarmContainer() -> TraitInjection.Container {
    let container = makeTraitContainer()
    _ = must { try container.resolve(SingletonService.self) }
    _ = must { try container.resolve(OtherSingletonService.self) }
    return container
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

    asyncBenchmarks()
    asyncBaselineBenchmarks()
    autoregistrationBenchmarks()
    lazyBenchmarks()
    traceBenchmarks()

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

    Benchmark("Resolve transient: plain baseline") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(TransientService.self) })
        }
    } setup: {
        makePlainContainer()
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

    Benchmark("Resolve singleton: plain baseline") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(SingletonService.self) })
        }
    } setup: {
        makeWarmPlainContainer()
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

    Benchmark("Resolve 4-object graph: plain baseline") { benchmark, container in
        for _ in benchmark.scaledIterations {
            blackHole(must { try container.resolve(Root.self) })
        }
    } setup: {
        makePlainContainer()
    }

    Benchmark("Resolve 4-object graph: by hand") { benchmark in
        for _ in benchmark.scaledIterations {
            let leaf = Leaf()
            blackHole(Root(left: Middle(leaf: leaf), right: Middle(leaf: leaf)))
        }
    }

    // Named lookups: one of N names of one type, all names of equal length. Flat in N.
    for count in [10, 10_000] {
        Benchmark("Resolve named, one of \(count) names: TraitInjection") { benchmark, container in
            let name = middleName(of: count)
            for _ in benchmark.scaledIterations {
                blackHole(must { try container.resolve(TransientService.self, name: name) })
            }
        } setup: {
            makeNamedContainer(count: count)
        }

        Benchmark("Resolve named, one of \(count) names: Swinject") { benchmark, container in
            let name = middleName(of: count)
            for _ in benchmark.scaledIterations {
                blackHole(container.resolve(TransientService.self, name: name)!)
            }
        } setup: {
            makeNamedSwinjectContainer(count: count)
        }

        Benchmark("Resolve named, one of \(count) names: plain baseline") { benchmark, container in
            let name = middleName(of: count)
            for _ in benchmark.scaledIterations {
                blackHole(must { try container.resolve(TransientService.self, name: name) })
            }
        } setup: {
            makeNamedPlainContainer(count: count)
        }
    }

    // Depth: a chain of 50 transient services, each resolving the next by name. Per resolution of
    // the chain's head (50 resolves).
    let depth = depthConfiguration

    Benchmark("Resolve a chain of 50: TraitInjection", configuration: depth) { _, container in
        blackHole(must { try container.resolve(Link.self, name: linkName(0)) })
    } setup: {
        makeChainContainer()
    }

    Benchmark("Resolve a chain of 50: Swinject", configuration: depth) { _, container in
        blackHole(container.resolve(Link.self, name: linkName(0))!)
    } setup: {
        makeChainSwinjectContainer()
    }

    Benchmark("Resolve a chain of 50: plain baseline", configuration: depth) { _, container in
        blackHole(must { try container.resolve(Link.self, name: linkName(0)) })
    } setup: {
        makeChainPlainContainer()
    }

    // The technique split: the same rows on the library as shipped and on builds of it with one
    // technique swapped for its plain baseline (Benchmarks/README.md).
    splitRows("TraitInjection") { LibrarySubject.Subject() }
    splitRows("baseline Dictionary snapshot") { DictionarySnapshotSubject.Subject() }
    splitRows("baseline singleton read under a lock") { MutexCellSubject.Subject() }
    splitRows("baseline registry read under a lock") { LockedRegistrySubject.Subject() }
    splitRows("baseline new context per resolve") { NewContextSubject.Subject() }
    splitRows("exclusivity unchecked") { UncheckedExclusivitySubject.Subject() }
    asyncSplitRows()

    // Throughput: the same resolutions per thread, on one thread and on two at once. With perfect
    // scaling the two-thread iteration takes as long as the one-thread one.
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

    Benchmark("Scaling: resolve the same singleton 100,000x on each of 2 threads", configuration: scaling) {
        _,
        container in
        resolveSingletons(container, threads: 2, shared: true)
    } setup: {
        makeWarmContainer()
    }

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

/// What each build in the technique split offers: `Subjects/Shared/Subject.swift`.
protocol SplitSubject: Sendable {
    func transient() -> AnyObject
    func singleton() -> AnyObject
    func graph() -> AnyObject
    func chain() -> AnyObject
    func asyncSingleton() async -> AnyObject
}

extension LibrarySubject.Subject: SplitSubject {}
extension DictionarySnapshotSubject.Subject: SplitSubject {}
extension MutexCellSubject.Subject: SplitSubject {}
extension LockedRegistrySubject.Subject: SplitSubject {}
extension NewContextSubject.Subject: SplitSubject {}
extension UncheckedExclusivitySubject.Subject: SplitSubject {}
extension LockedAsyncLookupSubject.Subject: SplitSubject {}

/// The split's rows for `resolveAsync` of a published async singleton, on the library and on its
/// plain baseline.
func asyncSplitRows() {
    Benchmark("Split async singleton: TraitInjection") { benchmark, subject in
        for _ in benchmark.scaledIterations { blackHole(await subject.asyncSingleton()) }
    } setup: {
        await LibrarySubject.Subject.warm()
    }
    Benchmark("Split async singleton: baseline lookup under locks") { benchmark, subject in
        for _ in benchmark.scaledIterations { blackHole(await subject.asyncSingleton()) }
    } setup: {
        await LockedAsyncLookupSubject.Subject.warm()
    }
    // Two tasks on the two-thread pool: 100,000 resolves in each per iteration.
    let scaling = Benchmark.Configuration(metrics: [.wallClock], timeUnits: .microseconds, scalingFactor: .one)
    Benchmark("Split async 2 tasks, same singleton: TraitInjection", configuration: scaling) { _, subject in
        await resolveInTwoTasks(subject)
    } setup: {
        await LibrarySubject.Subject.warm()
    }
    Benchmark("Split async 2 tasks, same singleton: baseline lookup under locks", configuration: scaling) {
        _,
        subject in
        await resolveInTwoTasks(subject)
    } setup: {
        await LockedAsyncLookupSubject.Subject.warm()
    }
}

/// `scalingOperations` async resolves of the subject's singleton in each of two tasks at once.
func resolveInTwoTasks(_ subject: some SplitSubject) async {
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<2 {
            group.addTask {
                for _ in 0..<scalingOperations { blackHole(await subject.asyncSingleton()) }
            }
        }
    }
}

/// The split's rows for one build: transient, cached singleton and 4-object graph per resolve, and
/// a chain of 50 per resolve of its head.
func splitRows<Subject: SplitSubject>(_ label: String, _ make: @escaping @Sendable () -> Subject) {
    Benchmark("Split transient: \(label)") { benchmark, subject in
        for _ in benchmark.scaledIterations { blackHole(subject.transient()) }
    } setup: {
        make()
    }
    Benchmark("Split singleton: \(label)") { benchmark, subject in
        for _ in benchmark.scaledIterations { blackHole(subject.singleton()) }
    } setup: {
        make()
    }
    Benchmark("Split 4-object graph: \(label)") { benchmark, subject in
        for _ in benchmark.scaledIterations { blackHole(subject.graph()) }
    } setup: {
        make()
    }
    Benchmark("Split chain of 50: \(label)", configuration: depthConfiguration) { _, subject in
        blackHole(subject.chain())
    } setup: {
        make()
    }
    // Two threads on one container: 100,000 resolves on each per iteration.
    let scaling = Benchmark.Configuration(metrics: [.wallClock], timeUnits: .microseconds, scalingFactor: .one)
    Benchmark("Split 2 threads, same singleton: \(label)", configuration: scaling) { _, subject in
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<scalingOperations { blackHole(subject.singleton()) }
        }
    } setup: {
        make()
    }
    Benchmark("Split 2 threads, transient: \(label)", configuration: scaling) { _, subject in
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<scalingOperations { blackHole(subject.transient()) }
        }
    } setup: {
        make()
    }
}

/// One resolve of a chain's head per iteration.
var depthConfiguration: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )
}
