/// The services a ``Resolution`` is creating, outermost first: the path that a cycle or an
/// error report shows.
///
/// A plain array of frames that retain their registrations. A stack in memory of its own with
/// unretained frames was measured against it on the resolve rows (Benchmarks/README.md, the
/// technique split) and won less than 1.5× on every row, so it went. The array lives in the
/// thread's reused context and keeps its capacity, so a resolve allocates nothing for it.
@usableFromInline
struct ResolutionPath {
    /// One service being created.
    @usableFromInline
    struct Frame {
        @usableFromInline let registration: any AnyRegistration

        @usableFromInline
        init(_ registration: any AnyRegistration) {
            self.registration = registration
        }
    }

    @usableFromInline var frames: [Frame] = []

    init() {
        frames.reserveCapacity(16)
    }

    @inlinable
    var count: Int { frames.count }

    @inlinable
    var isEmpty: Bool { frames.isEmpty }

    /// Pushes the frame of `registration`, whose service is being created.
    @inlinable @inline(__always)
    mutating func push(_ registration: any AnyRegistration) {
        frames.append(Frame(registration))
    }

    /// Pops the innermost frame.
    @inlinable @inline(__always)
    mutating func pop() {
        frames.removeLast()
    }

    /// Forgets every frame, keeping the array's capacity.
    @inlinable
    mutating func removeAll() {
        frames.removeAll(keepingCapacity: true)
    }

    /// Where the frame of `registration` is, outermost first: the start of a cycle.
    @inlinable @inline(__always)
    func index(of registration: AnyObject) -> Int? {
        frames.firstIndex { $0.registration === registration }
    }

    /// The steps of the frames from `start` on, for an error.
    func steps(from start: Int = 0) -> [ResolutionError.Step] {
        frames[start...].map(\.registration.step)
    }

    /// The service of the innermost frame, if any.
    var innermostService: String? {
        frames.last?.registration.step.service
    }
}
