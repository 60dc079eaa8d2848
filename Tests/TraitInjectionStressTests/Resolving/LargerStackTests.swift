import Synchronization
import TestFixtures
import Testing

@testable import TraitInjection

/// Direct tests of ``LargerStack`` and the stack checks it rests on: when a thread's stack is
/// nearly used up, the rest of a chain runs on a helper thread with a large one.
@Suite("Resolving: LargerStack", .timeLimit(.minutes(10)))
struct LargerStackTests {
    /// A link of a chain, with what its factory saw.
    final class ChainLink: Sendable {
        let next: ChainLink?
        /// The thread its factory ran on.
        let thread: UInt
        /// Whether its factory saw the caller's shared container, and its injector default override.
        let sawTaskLocals: Bool

        init(next: ChainLink?, thread: UInt, sawTaskLocals: Bool) {
            self.next = next
            self.thread = thread
            self.sawTaskLocals = sawTaskLocals
        }
    }

    @Test(
        "A thread's stack limit is 128 KiB above its base, or three quarters of its stack if that is less; there it is exhausted too",
        arguments: [64, 512])
    func stackLimit(kibibytes: Int) async throws {
        let found = Mutex<(low: UInt, high: UInt, limit: UInt, exhausted: UInt)?>(nil)
        await onOwnThreads(stackSize: kibibytes * 1024) { _ in
            guard let (low, high) = Platform.stackBounds() else { return }
            let limits = ResolvingThread.current.stackLimits
            found.withLock { $0 = (low, high, limits.low, limits.exhausted) }
        }
        let (low, high, limit, exhausted) = try #require(found.withLock { $0 })
        let size = high - low
        // At least what was asked for (glibc may hand over a larger cached stack).
        #expect(size >= UInt(kibibytes * 1024))
        #expect(limit > low && limit < high)
        #expect(limit - low == min(128 * 1024, size / 4 * 3))
        // A factory that must run on this thread needs the whole margin: a level of one with
        // large locals under AddressSanitizer takes more than half of it.
        #expect(exhausted == limit)
    }

    /// Recurses, keeping a buffer on the stack at each level as a resolve's frames would, until
    /// the stack is found low; returns that level, or -1 if it never is within a million levels.
    ///
    /// Each level hands its buffer to the next, which reads it: the optimiser can turn neither
    /// call into a jump (a recursion whose result is only added to would become a loop).
    @inline(never)
    static func descend(_ level: Int, on thread: ResolvingThread, outer: UnsafeMutableRawBufferPointer? = nil) -> Int {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &buffer) { bytes in
            bytes[0] = UInt8(truncatingIfNeeded: level) &+ (outer?[0] ?? 0)
            guard level < 1_000_000 else { return -1 }
            guard !LargerStack.isLow(thread, at: 0) else { return level }
            let found = descend(level + 1, on: thread, outer: bytes)
            return bytes[0] == 255 && found == 0 ? 0 : found
        }
    }

    @Test("A recursion on a 64 KiB stack finds it low after some levels, and before it runs out")
    func lowBeforeItRunsOut() async {
        let found = Mutex<(lowAtTop: Bool, level: Int)>((true, 0))
        await onOwnThreads(stackSize: 64 * 1024) { _ in
            let thread = ResolvingThread.current
            let lowAtTop = LargerStack.isLow(thread, at: 0)
            // Had the check never fired, the recursion would have crashed the process.
            let level = Self.descend(0, on: thread)
            found.withLock { $0 = (lowAtTop, level) }
        }
        let (lowAtTop, level) = found.withLock { $0 }
        #expect(!lowAtTop)
        #expect(level > 0)
    }

    @Test("A shallow resolve on a thread with a 128 KiB stack runs its factory on that thread")
    func shallowResolveStaysOnItsThread() async {
        let container = Container()
        container.register(UInt.self) { _ in Platform.currentThread }
        let found = Mutex<(caller: UInt, factory: UInt?)>((0, nil))
        await onOwnThreads(stackSize: 128 * 1024) { _ in
            let factory = try? container.resolve(UInt.self)
            found.withLock { $0 = (Platform.currentThread, factory) }
        }
        let (caller, factory) = found.withLock { $0 }
        #expect(caller != 0)
        #expect(factory == caller)
    }

    @Test("A deep chain on a 512 KiB stack goes on on a helper thread, which sees the caller's task-local values")
    func deepChainMovesToAHelper() async throws {
        let container = Container()
        // Enough to outgrow 384 KiB of stack in a release build; fewer under ThreadSanitizer, where
        // each allocation records the whole stack.
        let depth = isThreadSanitized ? 800 : 3_000
        container.register(ChainLink.self) { (r, depth: Int) in
            let next = depth == 0 ? nil : try r.resolve(ChainLink.self, arguments: depth - 1)
            let sawTaskLocals = Container.shared === container && TestPetInjector.pet.value.name == "Rex"
            return ChainLink(next: next, thread: Platform.currentThread, sawTaskLocals: sawTaskLocals)
        }
        let found = Mutex<(caller: UInt, top: ChainLink?, error: ResolutionError?)>((0, nil, nil))
        await onOwnThreads(stackSize: 512 * 1024) { _ in
            let caller = Platform.currentThread
            let result = TestPetInjector.pet.withValue(Pet(name: "Rex", species: "Dog")) {
                Container.withShared(container) {
                    Result { () throws(ResolutionError) in
                        try container.resolve(ChainLink.self, arguments: depth - 1)
                    }
                }
            }
            switch result {
            case .success(let top): found.withLock { $0 = (caller, top, nil) }
            case .failure(let error): found.withLock { $0 = (caller, nil, error) }
            }
        }
        let (caller, top, error) = found.withLock { $0 }
        #expect(error == nil, "\(String(describing: error))")
        var links: [ChainLink] = []
        var next = top
        while let link = next {
            links.append(link)
            next = link.next
        }
        #expect(links.count == depth)
        // The outermost factories ran on the calling thread, the innermost on another.
        #expect(links.first?.thread == caller)
        #expect(links.last.map { $0.thread != caller } == true)
        #expect(links.allSatisfy { $0.sawTaskLocals })
    }

    @Test("However large the stack, a thread runs at most 1,000 levels of a chain; helper threads run the rest")
    func levelsPerThread() async throws {
        let container = Container()
        container.register(ChainLink.self) { (r, depth: Int) in
            let next = depth == 0 ? nil : try r.resolve(ChainLink.self, arguments: depth - 1)
            return ChainLink(next: next, thread: Platform.currentThread, sawTaskLocals: true)
        }
        let top = Mutex<ChainLink?>(nil)
        await onOwnThreads(stackSize: 64 * 1024 * 1024) { _ in
            let link = try? container.resolve(ChainLink.self, arguments: 2_499)
            top.withLock { $0 = link }
        }
        // The threads the levels ran on, one run of consecutive levels each.
        var runs: [(thread: UInt, levels: Int)] = []
        var next = try #require(top.withLock { $0 })
        while true {
            if runs.last?.thread == next.thread {
                runs[runs.count - 1].levels += 1
            } else {
                runs.append((next.thread, 1))
            }
            guard let link = next.next else { break }
            next = link
        }
        #expect(runs.reduce(0) { $0 + $1.levels } == 2_500)
        #expect(runs.count >= 3)
        #expect(runs.allSatisfy { $0.levels <= LargerStack.levelsPerThread })
        #expect(Set(runs.map(\.thread)).count == runs.count)
    }

    @Test("A helper thread the system refuses runs nothing and says so; one it grants runs, while the caller waits")
    func refusedHelperThread() async {
        let found = Mutex<(refused: Bool, ranRefused: Bool, granted: Bool, caller: UInt, ran: UInt, waited: UInt)>(
            (false, true, false, 0, 0, 0))
        await onOwnThreads { _ in
            var ranRefused = false
            // Far more address space than any system grants a stack.
            let refused = !Platform.runOnNewThread(stackSize: 1 << 50) {
                ranRefused = true
            } whileWaiting: {
                ranRefused = true
            }
            var ran: UInt = 0
            var waited: UInt = 0
            let granted = Platform.runOnNewThread(stackSize: 1 << 20) {
                ran = Platform.currentThread
            } whileWaiting: {
                waited = Platform.currentThread
            }
            found.withLock { $0 = (refused, ranRefused, granted, Platform.currentThread, ran, waited) }
        }
        let result = found.withLock { $0 }
        #expect(result.refused)
        #expect(!result.ranRefused)
        #expect(result.granted)
        #expect(result.ran != 0 && result.ran != result.caller)
        #expect(result.waited == result.caller)
    }
}
