import Synchronization
import TestFixtures
import Testing
import TraitInjection

/// One thread's results, read once the threads have ended: no two threads wait for the same
/// lock, since ThreadSanitizer does not see the futex a contended `Mutex` waits on.
final class Slot<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func update(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
    var current: Value { value.withLock { $0 } }
}

@Suite("Container: Lazy and Provider under concurrency")
struct ContainerLazyStressTests {
    final class Left: Sendable {
        init(_ right: Lazy<Right>, meet: Counter) throws {
            // Both threads are creating before either asks for the other.
            meet.increment()
            _ = waitUntil(seconds: 10) { meet.count >= 2 }
            _ = try right.value
        }
    }

    final class Right: Sendable {
        init(_ left: Lazy<Left>, meet: Counter) throws {
            meet.increment()
            _ = waitUntil(seconds: 10) { meet.count >= 2 }
            _ = try left.value
        }
    }

    @Test("Threads accessing a Lazy first at once: one resolve, one instance for all", arguments: 0..<20)
    func concurrentFirstAccess(round: Int) throws {
        let container = Container()
        let made = Counter()
        let arrived = Counter()
        container.register(Service.self) { _ in
            // Slow, so that the other threads ask while it runs.
            usleepCompat(2_000)
            return Service(number: made.increment())
        }
        let lazy = try container.resolve(Lazy<Service>.self)
        let seen = (0..<6).map { _ in Slot<ObjectIdentifier?>(nil) }
        onThreads(6) { index in
            arrived.increment()
            _ = waitUntil(seconds: 10) { arrived.count >= 6 }
            let service = try? lazy.value
            seen[index].update { $0 = service.map(ObjectIdentifier.init) }
        }
        #expect(made.count == 1)
        let identities = seen.map { $0.current }
        #expect(identities.allSatisfy { $0 == ObjectIdentifier(try! lazy.value) })
    }

    @Test("Providers called from several threads resolve in the container's scopes")
    func concurrentProviders() throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.register(Service.self, name: "shared") { _ in Service() }.inScope(.container)
        let fresh = try container.resolve(Provider<Service>.self)
        let shared = try container.resolve(Provider<Service>.self, name: "shared")
        // The instances themselves, kept until the end, so that no address is reused.
        let made = (0..<4).map { _ in Slot<[Service]>([]) }
        let singletons = (0..<4).map { _ in Slot<Set<ObjectIdentifier>>([]) }
        onThreads(4) { index in
            for _ in 0..<200 {
                let instance = try! fresh()
                made[index].update { $0.append(instance) }
                let single = try! shared()
                singletons[index].update { _ = $0.insert(ObjectIdentifier(single)) }
            }
        }
        #expect(singletons.reduce(into: Set()) { $0.formUnion($1.current) }.count == 1)
        let all = made.flatMap(\.current)
        #expect(all.count == 800 && Set(all.map(ObjectIdentifier.init)).count == 800)
    }

    @Test("A container released while threads use its Lazy and Provider: instances or a clear error")
    func releasedWhileInUse() throws {
        for _ in 0..<20 {
            let holder = Mutex<Container?>(Container())
            let container = holder.withLock { $0! }
            container.register(Service.self) { _ in Service() }
            let lazy = try container.resolve(Lazy<Service>.self)
            let provider = try container.resolve(Provider<Service>.self)
            _ = consume container
            let failures = (0..<3).map { _ in Slot<[ResolutionError.Kind]>([]) }
            onThreads(3) { index in
                if index == 0 {
                    usleepCompat(200)
                    let last = holder.withLock { held in
                        defer { held = nil }
                        return held
                    }
                    // The last strong reference goes here, while the others resolve.
                    withExtendedLifetime(last) {}
                    return
                }
                for _ in 0..<300 {
                    do throws(ResolutionError) {
                        _ = index == 1 ? try lazy.value : try provider()
                    } catch {
                        failures[index].update { $0.append(error.kind) }
                    }
                }
            }
            #expect(failures.allSatisfy { $0.current.allSatisfy { $0 == .containerReleased } })
            #expect(throws: ResolutionError.self) { try provider() }
        }
    }

    @Test("Two threads whose Lazies need each other: errors, no hang, nothing kept")
    func lazyDeadlock() throws {
        let container = Container()
        let meet = Counter()
        container.register(Left.self) { r in try Left(try r.resolve(Lazy<Right>.self), meet: meet) }
        container.register(Right.self) { r in try Right(try r.resolve(Lazy<Left>.self), meet: meet) }
        // One Lazy of each, shared by both threads and by the factories.
        let left = try container.resolve(Lazy<Left>.self)
        let right = try container.resolve(Lazy<Right>.self)
        container.register(Lazy<Left>.self) { _ in left }
        container.register(Lazy<Right>.self) { _ in right }
        let kinds = (0..<2).map { _ in Slot<ResolutionError.Kind?>(nil) }
        onThreads(2) { index in
            do throws(ResolutionError) {
                _ = index == 0 ? try left.value as AnyObject : try right.value as AnyObject
            } catch {
                kinds[index].update { $0 = error.kind }
            }
        }
        let seen: [ResolutionError.Kind] = kinds.compactMap { $0.current }
        #expect(seen.count == 2)
        #expect(seen.allSatisfy { [.deadlock, .cycle].contains($0) })
        #expect(seen.contains(.deadlock))
        // Nothing was kept: alone, a thread finds the cycle.
        #expect {
            try left.value
        } throws: { error in
            (error as? ResolutionError)?.kind == .cycle
        }
    }
}
