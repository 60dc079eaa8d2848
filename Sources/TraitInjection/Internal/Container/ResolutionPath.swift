/// The services a ``Resolution`` is creating, outermost first: the path that a cycle or an
/// error report shows.
///
/// A stack in memory of its own rather than an array: a resolution is confined to one thread and
/// never shares its path, so pushing and popping a frame need no uniqueness check and no
/// reference counting. Frames do not retain their registrations: the resolve that pushed a frame
/// holds its registration until it pops it.
///
/// Its owner, the resolution, never copies it and frees its memory with ``deallocate()``.
@usableFromInline
struct ResolutionPath {
    /// One service being created.
    @usableFromInline
    struct Frame {
        @usableFromInline unowned(unsafe) let registration: any AnyRegistration

        @usableFromInline
        init(_ registration: any AnyRegistration) {
            self.registration = registration
        }
    }

    @usableFromInline var frames: UnsafeMutablePointer<Frame>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    init() {
        capacity = 16
        frames = .allocate(capacity: capacity)
    }

    /// Frees the frames' memory: the path's end. (Frames are trivial values: nothing to
    /// deinitialise.)
    func deallocate() {
        frames.deallocate()
    }

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Pushes the frame of `registration`, whose service is being created.
    @inlinable @inline(__always)
    mutating func push(_ registration: any AnyRegistration) {
        if count == capacity { grow() }
        (frames + count).initialize(to: Frame(registration))
        count += 1
    }

    /// Pops the innermost frame.
    @inlinable @inline(__always)
    mutating func pop() {
        count -= 1
    }

    /// Forgets every frame.
    @inlinable
    mutating func removeAll() {
        count = 0
    }

    /// Where the frame of `registration` is, outermost first: the start of a cycle.
    @inlinable @inline(__always)
    func index(of registration: AnyObject) -> Int? {
        var index = 0
        while index < count {
            if frames[index].registration === registration { return index }
            index += 1
        }
        return nil
    }

    /// The steps of the frames from `start` on, for an error.
    func steps(from start: Int = 0) -> [ResolutionError.Step] {
        (start..<count).map { frames[$0].registration.step }
    }

    /// The service of the innermost frame, if any.
    var innermostService: String? {
        isEmpty ? nil : frames[count - 1].registration.step.service
    }

    @usableFromInline
    mutating func grow() {
        let larger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: frames, count: count)
        frames.deallocate()
        frames = larger
        capacity *= 2
    }
}
