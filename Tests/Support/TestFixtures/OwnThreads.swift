import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("These tests run on Darwin and Glibc platforms.")
#endif

/// Runs `body` on `count` new threads at once (each told its index), each with a stack of
/// `stackSize` bytes, and suspends until every one of them has returned.
///
/// Like ``OwnThread``, for work that blocks: the bodies may wait for each other or for the test,
/// and each gets a thread of its own however busy the cores are. Unlike it, this sets the stack
/// size (for deep chains on small stacks), and the caller waits by suspending rather than polling,
/// so it holds no thread of the cooperative pool meanwhile.
///
/// ```swift
/// await onOwnThreads(3, stackSize: 512 * 1024) { index in
///     _ = try? container.resolve(Service.self, name: "\(index)")
/// }
/// ```
package func onOwnThreads(
    _ count: Int = 1,
    stackSize: Int = 1 << 20,
    _ body: @escaping @Sendable (Int) -> Void
) async {
    guard count > 0 else { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let batch = ThreadBatch(count: count, body: body, continuation: continuation)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        for index in 0..<count {
            let start = Unmanaged.passRetained(ThreadStart(batch: batch, index: index)).toOpaque()
            #if canImport(Darwin)
                var thread: pthread_t?
                let result = pthread_create(&thread, &attributes, { ThreadStart.run($0) }, start)
            #else
                var thread = pthread_t()
                let result = pthread_create(&thread, &attributes, { ThreadStart.run($0!) }, start)
            #endif
            precondition(result == 0, "pthread_create failed: \(result)")
        }
    }
}

/// The threads of one ``onOwnThreads(_:stackSize:_:)`` call: the last to return resumes the caller.
private final class ThreadBatch: Sendable {
    private let remaining: Atomic<Int>
    private let body: @Sendable (Int) -> Void
    private let continuation: CheckedContinuation<Void, Never>

    init(count: Int, body: @escaping @Sendable (Int) -> Void, continuation: CheckedContinuation<Void, Never>) {
        remaining = Atomic(count)
        self.body = body
        self.continuation = continuation
    }

    func run(_ index: Int) {
        body(index)
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { continuation.resume() }
    }
}

/// What one thread of a batch starts with.
private final class ThreadStart {
    let batch: ThreadBatch
    let index: Int

    init(batch: ThreadBatch, index: Int) {
        self.batch = batch
        self.index = index
    }

    static func run(_ pointer: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        let start = Unmanaged<ThreadStart>.fromOpaque(pointer).takeRetainedValue()
        start.batch.run(start.index)
        return nil
    }
}
