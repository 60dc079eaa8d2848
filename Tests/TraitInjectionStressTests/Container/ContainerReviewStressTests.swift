import Dispatch
import Synchronization
import TestFixtures
import Testing

@testable import TraitInjection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("These tests run on Darwin and Glibc platforms.")
#endif

/// Runs `body` when deinitialised.
private final class DeinitAction: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    deinit { body() }
}

/// A resolve on another thread, blocked in its factory until `finish()`: while it runs, every
/// replaced registration stays retired.
private final class LongResolve: Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let proceed = DispatchSemaphore(value: 0)
    private let done = DispatchGroup()

    init() {
        let container = Container()
        let entered = entered
        let proceed = proceed
        container.register(Int.self) { _ in
            entered.signal()
            proceed.wait()
            return 0
        }
        DispatchQueue.global().async(group: done) { _ = try? container.resolve(Int.self) }
        entered.wait()
    }

    func finish() {
        proceed.signal()
        done.wait()
    }
}

@Suite("Container: snapshot release and stack checks under review", .serialized)
struct ContainerReviewStressTests {
    @Test(
        "Stress: containers dropped while their snapshots wait, whose values resolve and register in deinit, never hang",
        .timeLimit(.minutes(1))
    )
    func droppedListedContainers() throws {
        let long = LongResolve()
        defer { long.finish() }
        let other = Container()
        other.register(Int.self) { _ in 7 }
        let deinits = Atomic<Int>(0)
        // A thread resolving all along: active at each replacement below, so each of its ends
        // releases what became unread, racing with the drops here.
        let stop = Atomic<Bool>(false)
        let resolver = DispatchGroup()
        DispatchQueue.global().async(group: resolver) {
            while !stop.load(ordering: .relaxed) { _ = try? other.resolve(Int.self) }
        }
        let deadline = ContinuousClock.now + .seconds(2)
        var rounds = 0
        while ContinuousClock.now < deadline {
            rounds += 1
            let container = Container()
            let probe = DeinitAction {
                // User code in a deinit the library started: it must run with no lock held.
                _ = try? other.resolve(Int.self)
                other.register(String.self) { _ in "" }
                deinits.add(1, ordering: .relaxed)
            }
            container.register(Int.self) { _ in
                _ = probe
                return 1
            }
            _ = try container.resolve(Int.self)
            container.register(Int.self) { _ in 2 }  // retired, kept for the long resolve
        }
        stop.store(true, ordering: .relaxed)
        resolver.wait()
        // Each dropped container went with its snapshots, and the probe with them.
        #expect(waitUntil { deinits.load(ordering: .relaxed) == rounds })
    }

    @Test("A resolve that was not running at a replacement is not marked to release snapshots")
    func onlyReadersAreMarked() throws {
        let long = LongResolve()
        let container = Container()
        container.register(Int.self) { _ in 1 }
        _ = try container.resolve(Int.self)
        container.register(Int.self) { _ in 2 }
        #expect(container.retiredSnapshotCount == 1)
        // This thread was not resolving at the replacement: its resolves leave the mark alone.
        for _ in 0..<100 { _ = try container.resolve(Int.self) }
        let slot = pthread_getspecific(ThreadContexts.shared.key)
        let marked = slot.map {
            Unmanaged<ResolutionContext>.fromOpaque($0).takeUnretainedValue().mustReclaim.load(ordering: .relaxed)
        }
        #expect(marked == false)
        #expect(container.retiredSnapshotCount == 1)
        // The long resolve was: its end releases the snapshot, and the container leaves the list.
        long.finish()
        #expect(waitUntil { container.retiredSnapshotCount == 0 })
    }

    @Test("Replacements while the same resolves run share one retired entry, so a register stays O(1)")
    func replacementsDuringOneResolveShareAnEntry() throws {
        let long = LongResolve()
        let container = Container()
        for round in 0..<1_000 {
            container.register(Int.self) { _ in round }
            _ = try container.resolve(Int.self)
        }
        // The long resolve was running at each replacement, so none has gone; other tests'
        // resolves running at some of them only split the entries.
        #expect(container.retiredSnapshotCount == 999)
        long.finish()
        #expect(waitUntil { container.retiredSnapshotCount == 0 })
    }

    @Test("A snapshot joins a retired entry only if its readers are among the entry's")
    func absorbOnlySubsets() throws {
        let first = ResolutionContext()
        let second = ResolutionContext()
        let both = [
            ResolutionContext.Activation(context: first, count: 1),
            ResolutionContext.Activation(context: second, count: 3),
        ]
        let table = RegistrationTable()
        var entry = RetiredSnapshot(snapshot: RegistrySnapshot(table: table), readers: both)
        let subset = entry.absorb(RegistrySnapshot(table: table), readers: [both[1]])
        let none = entry.absorb(RegistrySnapshot(table: table), readers: [])
        // Another activation of a reader, or another reader: a snapshot of its own.
        let laterActivation = entry.absorb(RegistrySnapshot(table: table), readers: [.init(context: first, count: 5)])
        let stranger = ResolutionContext()
        let otherReader = entry.absorb(RegistrySnapshot(table: table), readers: [.init(context: stranger, count: 1)])
        #expect([subset, none, laterActivation, otherReader] == [true, true, false, false])
        #expect(entry.snapshots.count == 3)
        // Contexts are never freed in the library; these two are only ever compared.
        withExtendedLifetime((first, second, stranger)) {}
    }

    @Test("A shallow resolve on a thread with a 128 KiB stack runs its factory on that thread")
    func smallStackRunsShallowResolvesItself() {
        let container = Container()
        container.register(UInt.self) { _ in currentThreadBits() }
        let result = Mutex<(thread: UInt, factory: UInt)>((0, 0))
        onThread(stackSize: 128 * 1024) {
            let factory = (try? container.resolve(UInt.self)) ?? 0
            result.withLock { $0 = (currentThreadBits(), factory) }
        }
        let (thread, factory) = result.withLock { $0 }
        #expect(thread != 0)
        #expect(factory == thread)
    }

    @Test("A helper thread the system refuses runs nothing and says so, rather than trapping")
    func refusedHelperThread() {
        var ran = false
        // Far more address space than any system grants.
        let granted = ResolutionContext.onHelperThread(stackSize: 1 << 50) { ran = true }
        #expect(!granted)
        #expect(!ran)
        var ranOnGranted = false
        #expect(ResolutionContext.onHelperThread(stackSize: 1 << 20) { ranOnGranted = true })
        #expect(ranOnGranted)
    }
}
