import Dispatch
import Foundation
import Synchronization

/// Keeps the current thread busy for `microseconds`, blocking it (as a slow factory would).
package func usleepCompat(_ microseconds: UInt32) {
    let deadline = DispatchTime.now() + .microseconds(Int(microseconds))
    while DispatchTime.now() < deadline { _ = 0 }
}

/// Sleeps for `microseconds`: for waits (for a flag, for another thread), which must leave the
/// CPU to what they wait for (the machine may have two cores, and other tests).
package func pauseCompat(_ microseconds: UInt32) {
    usleep(microseconds)
}

/// Whether `condition` becomes true within `seconds`, checked every millisecond: for what
/// another thread does (such as the end of a resolve in a test running in parallel).
///
/// The default is generous: a parallel test's long resolve (a deep chain, a slow singleton)
/// takes tens of seconds on a loaded 2-core machine or under a sanitizer.
package func waitUntil(seconds: Int = 120, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + .seconds(seconds)
    while !condition() {
        guard DispatchTime.now() < deadline else { return false }
        pauseCompat(1_000)
    }
    return true
}

/// A flag a test raises once, and that tasks poll without blocking a thread.
package final class Gate: Sendable {
    private let isOpen = Atomic<Bool>(false)

    package init() {}

    package func open() { isOpen.store(true, ordering: .releasing) }

    package var opened: Bool { isOpen.load(ordering: .acquiring) }

    /// Suspends, yielding its thread, until the gate is open.
    package func wait() async {
        // Sleeping, not yielding: a yielding loop is always runnable, and keeps the cooperative
        // pool's threads (two on a 2-core machine) busy running it.
        while !opened { try? await Task.sleep(for: .microseconds(500)) }
    }
}

/// Runs `body` in `count` child tasks at once and returns their results.
package func inTasks<Result: Sendable>(
    _ count: Int,
    _ body: @escaping @Sendable (Int) async -> Result
) async -> [Result] {
    await withTaskGroup(of: Result.self) { group in
        for index in 0..<count { group.addTask { await body(index) } }
        return await group.reduce(into: []) { $0.append($1) }
    }
}

/// Runs `body` on a thread of its own, for work that blocks while tasks must go on: a Dispatch
/// thread would not do, since on Linux the cooperative pool runs on Dispatch's threads, as many as
/// there are cores, and tests running in parallel could block them all.
package final class OwnThread: Sendable {
    private let ended = Gate()

    package init(_ body: @escaping @Sendable () -> Void) {
        let ended = self.ended
        Thread.detachNewThread {
            body()
            ended.open()
        }
    }

    /// Suspends until `body` has returned.
    package func join() async { await ended.wait() }
}

/// 4 KiB in one value, so that a frame holding it takes that much stack.
private typealias StackBlock = (
    SIMD64<UInt64>, SIMD64<UInt64>, SIMD64<UInt64>, SIMD64<UInt64>,
    SIMD64<UInt64>, SIMD64<UInt64>, SIMD64<UInt64>, SIMD64<UInt64>
)

/// Uses about `kilobytes` of stack (in 4 KiB frames, few calls: ThreadSanitizer counts calls),
/// then runs `body` with that still in use — as a factory with large locals would.
@inline(never)
package func usingStack<Result>(kilobytes: Int, _ body: () throws -> Result) rethrows -> Result {
    let word = SIMD64<UInt64>(repeating: UInt64(kilobytes))
    var block: StackBlock = (word, word, word, word, word, word, word, word)
    let result = try kilobytes <= 4 ? body() : usingStack(kilobytes: kilobytes - 4, body)
    return withUnsafeMutableBytes(of: &block) { touch($0) } ? result : result
}

/// Reads the last byte of `bytes`, opaquely: the compiler keeps them whole on the stack.
@inline(never)
private func touch(_ bytes: UnsafeMutableRawBufferPointer) -> Bool {
    bytes[bytes.count - 1] == 0
}
