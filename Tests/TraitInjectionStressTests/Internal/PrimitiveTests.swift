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

/// Direct tests of the library's internal primitives, apart from the container that uses them.
@Suite("Internal primitives")
struct PrimitiveTests {
    @Test("Locked: a critical section sees and keeps the state, and returns its result")
    func lockedKeepsState() {
        let locked = Locked.make([Int]())
        let count = locked.withLock { state -> Int in
            state.append(1)
            state.append(2)
            return state.count
        }
        #expect(count == 2)
        #expect(locked.withLock { $0 } == [1, 2])
    }

    @Test("Locked: a lock on cache lines of its own is aligned to a cache line")
    func lockedOwnCacheLines() {
        let locked = Locked.make(0, ownCacheLines: true)
        #expect(UInt(bitPattern: locked.storage) % 64 == 0)
        #expect(locked.withLock { $0 } == 0)
    }

    @Test("Stress: Locked loses no increment from two threads")
    func lockedStress() {
        let locked = Locked.make(0)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<100_000 { locked.withLock { $0 += 1 } }
        }
        #expect(locked.withLock { $0 } == 200_000)
    }

    @Test("ResolutionPath: frames push and pop in order, and are found")
    func resolutionPath() {
        let container = Container()
        let registrations: [any AnyRegistration] = (0..<40).map { number in
            container.register(Int.self, name: "\(number)") { _ in number }
        }
        var path = ResolutionPath()
        #expect(path.isEmpty)
        for registration in registrations { path.push(registration) }
        #expect(path.count == 40)
        #expect(path.index(of: registrations[0]) == 0)
        #expect(path.index(of: registrations[39]) == 39)
        path.pop()
        #expect(path.index(of: registrations[39]) == nil)
        #expect(path.steps().count == 39)
        path.removeAll()
        #expect(path.isEmpty)
        #expect(path.index(of: registrations[0]) == nil)
    }

    @Test("ThreadStack: a 512 KiB thread's bounds, and its limit 128 KiB above the base")
    func threadStackBounds() {
        let bounds = Mutex<ThreadStack?>(nil)
        onThread(stackSize: 512 * 1024) {
            bounds.withLock { $0 = ThreadStack.current() }
        }
        let stack = bounds.withLock { $0 } ?? ThreadStack()
        #if canImport(Glibc)
            // At least what was asked for (glibc may hand over a larger cached stack).
            let size: UInt = stack.top - stack.base
            let room: UInt = stack.limit - stack.base
            #expect(size >= 512 * 1024)
            #expect(room == 128 * 1024)
        #endif
        #expect(stack.base < stack.limit && stack.limit <= stack.top)
    }

    @Test("ThreadStack: half of a small stack is room; a recursion finds the stack low before it runs out")
    func threadStackSmall() {
        let found = Mutex<(size: UInt, room: UInt, level: Int, depth: UInt)>((0, 0, 0, 0))
        onThread(stackSize: 64 * 1024) {
            let stack = ThreadStack.current()
            // Each level keeps a buffer on the stack, as a resolve's frames would. Returns the
            // level at which the stack was found low and how far below its top that frame was.
            func descend(_ level: Int) -> (level: Int, depth: UInt) {
                var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
                return withUnsafeMutableBytes(of: &buffer) { bytes in
                    bytes[0] = UInt8(truncatingIfNeeded: level)
                    guard stack.isLow else { return descend(level + 1) }
                    return (level, stack.top - UInt(bitPattern: bytes.baseAddress))
                }
            }
            let (level, depth) = descend(0)
            found.withLock { $0 = (stack.top - stack.base, stack.limit - stack.base, level, depth) }
        }
        // glibc may hand over a larger cached stack than the 64 KiB asked for.
        let (size, room, level, depth) = found.withLock { $0 }
        #if canImport(Glibc)
            #expect(size >= 64 * 1024)
            #expect(room == min(128 * 1024, size / 2))
        #endif
        // Found low after some levels, never at once: at the limit (the level's buffer sits up to
        // a frame above the check's marker), and before the stack ran out. Where AddressSanitizer
        // keeps locals on a fake stack, the buffer's address says nothing about the depth.
        #expect(level > 0)
        if !isAddressSanitized {
            #expect(depth + 1024 >= size - room && depth < size, "size \(size), room \(room), depth \(depth)")
        }
    }

    @Test("Stress: ReaderCount waits for a read in flight on another thread, and not for ended ones")
    func readerCount() {
        let count = ReaderCount()
        count.prepare()
        let reading = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        let waited = Atomic<Bool>(false)
        let reader = DispatchGroup()
        DispatchQueue.global().async(group: reader) {
            let counter = count.enter()
            reading.signal()
            finish.wait()
            // The writer must still be waiting: it has not seen this read end.
            waited.store(false, ordering: .sequentiallyConsistent)
            if let counter { count.leave(counter) }
        }
        reading.wait()
        let writer = DispatchGroup()
        waited.store(true, ordering: .sequentiallyConsistent)
        DispatchQueue.global().async(group: writer) {
            count.waitForReaders()
            // Reached only after the reader left.
            let stillWaiting = waited.load(ordering: .sequentiallyConsistent)
            #expect(!stillWaiting)
        }
        #expect(writer.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        finish.signal()
        reader.wait()
        writer.wait()
        // With no read in flight, the wait returns at once.
        count.waitForReaders()
    }
}
