import Dispatch
import Synchronization
import TestFixtures
import Testing
import TraitInjection

#if canImport(Glibc)
    import CDispatch
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("These tests run on Darwin and Glibc platforms.")
#endif

/// A service resolved with a runtime argument, which resolves the next one down.
final class Link: Sendable {
    let depth: Int
    let next: Link?
    init(depth: Int, next: Link?) {
        self.depth = depth
        self.next = next
    }
}

/// An object that resolves a service in its initializer through an `@Inject` property.
final class EagerReader: @unchecked Sendable {
    @Inject var service: Service

    init() throws {
        _ = try $service.resolve()
    }
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes, and waits for it.
func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
    onThreads(1, stackSize: stackSize) { _ in body() }
}

/// Runs `body` on `count` new threads at once (each told its index), each with a stack of
/// `stackSize` bytes, and waits for them all. Unlike `DispatchQueue.concurrentPerform`, every
/// call gets a thread of its own even when the cores are busy, so bodies that wait for each other
/// always meet.
func onThreads(_ count: Int, stackSize: Int = 1 << 20, _ body: @escaping @Sendable (Int) -> Void) {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t.init()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, stackSize)
    #if canImport(Darwin)
        var threads: [pthread_t?] = []
    #else
        var threads: [pthread_t] = []
    #endif
    for index in 0..<count {
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let box = Unmanaged.passRetained(Box { body(index) }).toOpaque()
        let result = pthread_create(
            &thread,
            &attributes,
            { pointer in
                #if canImport(Darwin)
                    let box = Unmanaged<Box>.fromOpaque(pointer).takeRetainedValue()
                #else
                    let box = Unmanaged<Box>.fromOpaque(pointer!).takeRetainedValue()
                #endif
                box.body()
                return nil
            },
            box
        )
        precondition(result == 0)
        threads.append(thread)
    }
    pthread_attr_destroy(&attributes)
    for thread in threads {
        #if canImport(Darwin)
            pthread_join(thread!, nil)
        #else
            pthread_join(thread, nil)
        #endif
    }
}

@Suite("Container: cycles, waits and depth end in errors, never a hang or a crash")
struct ContainerCycleStressTests {
    @Test(
        "A factory that resolves its own service from the container is a cycle, in every scope",
        arguments: [Scope<Service>.transient, .graph, .container, .weak]
    )
    func nestedTopLevelCycle(scope: Scope<Service>) throws {
        let container = Container()
        container.register(Service.self) { _ in
            Service(number: try container.resolve(Service.self).number + 1)
        }
        .inScope(scope)
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Service.self) }
        #expect(error.kind == .cycle)
        #expect(error.path.map(\.service) == ["Service"])
        // The failed resolve kept nothing: a fixed registration works.
        container.register(Service.self) { _ in Service(number: 1) }.inScope(scope)
        #expect(try container.resolve(Service.self).number == 1)
    }

    @Test("A cycle through a nested resolve of another service is reported with the whole path")
    func nestedTopLevelCycleThroughTwo() throws {
        let container = Container()
        container.register(Service.self) { _ in Service(number: try container.resolve(Int.self)) }
            .inScope(.container)
        container.register(Int.self) { r in try r.resolve(Service.self).number }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Service.self) }
        #expect(error.kind == .cycle)
        #expect(error.path.map(\.service) == ["Service", "Int"])
    }

    @Test("An @Inject property read in an initializer that closes a cycle is reported, not hung")
    func injectInInitializer() throws {
        let container = Container()
        container.register(EagerReader.self) { _ in try EagerReader() }.inScope(.container)
        container.register(Service.self) { r in
            _ = try r.resolve(EagerReader.self)
            return Service()
        }
        try Container.withShared(container) {
            let error = try #require(throws: ResolutionError.self) { try container.resolve(Service.self) }
            #expect(error.kind == .cycle || error.description.contains("Circular dependency"))
            #expect(error.description.contains("Circular dependency"))
        }
    }

    @Test("A service may resolve itself with other runtime arguments; the same arguments are a cycle")
    func recursionWithArguments() throws {
        let container = Container()
        container.register(Link.self) { (r, depth: Int) in
            Link(depth: depth, next: depth == 0 ? nil : try r.resolve(Link.self, arguments: depth - 1))
        }
        #expect(try container.resolve(Link.self, arguments: 10).next?.next?.depth == 8)
        container.register(Link.self, name: "loop") { (r, depth: Int) in
            Link(depth: depth, next: try r.resolve(Link.self, name: "loop", arguments: depth))
        }
        let error = try #require(throws: ResolutionError.self) {
            try container.resolve(Link.self, name: "loop", arguments: 3)
        }
        #expect(error.kind == .cycle)
    }

    @Test("Stress: two threads creating singletons that need each other get a deadlock error, not a hang")
    func deadlockBetweenThreads() throws {
        for _ in 0..<10 {
            let container = Container()
            // Each factory waits until both have started, so that each thread holds its singleton.
            let started = Counter()
            @Sendable func waitForBoth() {
                started.increment()
                while started.count < 2 { usleepCompat(50) }
            }
            container.register(Service.self, name: "A") { r in
                waitForBoth()
                return Service(number: try r.resolve(Service.self, name: "B").number)
            }
            .inScope(.container)
            container.register(Service.self, name: "B") { r in
                waitForBoth()
                return Service(number: try r.resolve(Service.self, name: "A").number)
            }
            .inScope(.container)
            // One slot per thread: ThreadSanitizer does not see a contended `Mutex` (see `Slot`).
            let errors = [Slot<ResolutionError?>(nil), Slot<ResolutionError?>(nil)]
            // Two threads of their own: the factories wait for each other.
            onThreads(2) { thread in
                do throws(ResolutionError) {
                    _ = try container.resolve(Service.self, name: thread == 0 ? "A" : "B")
                } catch {
                    errors[thread].update { $0 = error }
                }
            }
            let all = errors.compactMap(\.current)
            #expect(all.count == 2)
            let deadlock = try #require(all.first { $0.kind == .deadlock })
            #expect(deadlock.description.contains("Deadlock between threads"))
            #expect(deadlock.relatedServices.count == 2)
            #expect(deadlock.description.contains("Service (name: \"A\")"))
            #expect(deadlock.description.contains("Service (name: \"B\")"))
        }
    }

    /// The CPU time this thread has used, in milliseconds.
    static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1_000 + Double(time.tv_nsec) / 1_000_000
    }

    @Test("Stress: a thread waiting for a singleton another thread is creating sleeps instead of polling")
    func waiterSleeps() async throws {
        let container = Container()
        let creating = Gate()
        container.register(Service.self) { _ in
            creating.open()
            usleepCompat(300_000)
            return Service(number: 5)
        }
        .inScope(.container)
        // The creator and the waiter on threads of their own: no pool thread is held meanwhile.
        let creator = OwnThread { _ = try? container.resolve(Service.self) }
        await creating.wait()
        let cpu = Mutex<Double>(0)
        await onOwnThreads(stackSize: 1 << 20) { _ in
            let start = Self.threadCPUMilliseconds()
            _ = try? container.resolve(Service.self)
            cpu.withLock { $0 = Self.threadCPUMilliseconds() - start }
        }
        await creator.join()
        // About 300 ms of waiting: a polling loop would spend most of it on the CPU. A sleeping
        // waiter wakes only to look again when a shared instance is made anywhere in the process
        // (one monitor serves every wait) — often, while the other suites run: a few dozen ms.
        #expect(cpu.withLock { $0 } < 120)
    }

    @Test("Stress: singletons taken in opposite orders by two threads all resolve, exactly once")
    func oppositeOrders() throws {
        for _ in 0..<50 {
            let container = Container()
            let creations = Counter()
            container.register(Service.self, name: "A") { _ in Service(number: creations.increment()) }
                .inScope(.container)
            container.register(Service.self, name: "B") { _ in Service(number: creations.increment()) }
                .inScope(.container)
            container.register(String.self, name: "AB") { r in
                let a = try r.resolve(Service.self, name: "A")
                usleepCompat(100)
                return "\(a.number)\(try r.resolve(Service.self, name: "B").number)"
            }
            container.register(String.self, name: "BA") { r in
                let b = try r.resolve(Service.self, name: "B")
                usleepCompat(100)
                return "\(try r.resolve(Service.self, name: "A").number)\(b.number)"
            }
            let results = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                let result = try? container.resolve(String.self, name: thread == 0 ? "AB" : "BA")
                results.withLock { $0.append(result ?? "failed") }
            }
            let all = results.withLock { $0 }
            #expect(all[0] == all[1])
            #expect(!all.contains("failed"))
            let a = try container.resolve(Service.self, name: "A")
            let b = try container.resolve(Service.self, name: "B")
            #expect(all[0] == "\(a.number)\(b.number)")
        }
    }

    @Test("A chain of 1,000 dependencies resolves on a thread with a 512 KiB stack")
    func deepChainOnSmallStack() async throws {
        let container = Container()
        container.register(Link.self) { (r, depth: Int) in
            Link(depth: depth, next: depth == 0 ? nil : try r.resolve(Link.self, arguments: depth - 1))
        }
        let depth = Mutex<Int?>(nil)
        await onOwnThreads(stackSize: 512 * 1024) { _ in
            var link = try? container.resolve(Link.self, arguments: 999)
            var count = 0
            while let current = link {
                count += 1
                link = current.next
            }
            depth.withLock { $0 = count }
        }
        #expect(depth.withLock { $0 } == 1_000)
    }

    @Test("A far deeper chain throws an error naming its depth and first services, on any stack")
    func tooDeep() async throws {
        let container = Container()
        container.register(Link.self) { (r, depth: Int) in
            Link(depth: depth, next: depth == 0 ? nil : try r.resolve(Link.self, arguments: depth - 1))
        }
        for stackSize in [512 * 1024, 8 * 1024 * 1024] {
            let caught = Mutex<ResolutionError?>(nil)
            await onOwnThreads(stackSize: stackSize) { _ in
                do throws(ResolutionError) {
                    _ = try container.resolve(Link.self, arguments: 10_000_000)
                } catch {
                    caught.withLock { $0 = error }
                }
            }
            let thrown = try #require(caught.withLock { $0 })
            #expect(thrown.kind == .tooDeep)
            #expect(thrown.depth == 10_001)
            #expect(thrown.description.contains("services deep"))
            #expect(thrown.path.first?.service == "Link (arguments: Int)")
        }
    }
}
