/// One service an async resolve is creating, linked to the one it is created for: the path of an
/// ``AsyncResolution``, outermost last.
///
/// Immutable and shared, so that the path travels with a resolution across `await` and into the
/// child tasks of a factory, each of which extends it on its own.
final class AsyncFrame: Sendable {
    let registration: any AnyRegistration
    /// The hash of the runtime arguments' values, for telling a recursion with other arguments
    /// from a cycle: `nil` if the registration takes none, or one is not `Hashable`. (Values are
    /// not kept: they need not be `Sendable`.)
    let argumentHash: Int?
    let outer: AsyncFrame?
    /// How many frames deep this is: 1 for the outermost.
    let depth: Int

    init(_ registration: any AnyRegistration, argumentHash: Int?, outer: AsyncFrame?) {
        self.registration = registration
        self.argumentHash = argumentHash
        self.outer = outer
        depth = (outer?.depth ?? 0) + 1
    }

    /// The frames from the outermost to this one.
    var frames: [AsyncFrame] {
        var frames: [AsyncFrame] = []
        var next: AsyncFrame? = self
        while let frame = next {
            frames.append(frame)
            next = frame.outer
        }
        return frames.reversed()
    }

    /// The path from the outermost service to this one.
    var steps: [ResolutionError.Step] {
        frames.map(\.registration.step)
    }

    /// The outermost frame of `registration` with the same arguments on this path, if any.
    func cycleStart(_ registration: any AnyRegistration, argumentHash: Int?) -> AsyncFrame? {
        if registration.takesArguments && argumentHash == nil { return nil }
        return frames.first { $0.registration === registration && $0.argumentHash == argumentHash }
    }
}
