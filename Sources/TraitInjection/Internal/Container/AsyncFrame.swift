/// One service an async resolve is creating, linked to the one it is created for: the path of an
/// ``AsyncResolution``, outermost last.
///
/// Immutable and shared, so that the path travels with a resolution across `await` and into the
/// child tasks of a factory, each of which extends it on its own.
///
/// A frame does not retain its registration, so that an instance keeping its resolver does not
/// keep its registration (which keeps the instance). Frames are read only while their resolve is
/// active (joined), and until it ends its state holds every registration it resolved.
final class AsyncFrame: Sendable {
    unowned(unsafe) let registration: any AnyRegistration
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

    /// The registrations on this path.
    var registrations: Set<ObjectIdentifier> {
        var registrations: Set<ObjectIdentifier> = []
        var next: AsyncFrame? = self
        while let frame = next {
            registrations.insert(ObjectIdentifier(frame.registration))
            next = frame.outer
        }
        return registrations
    }

    /// The path from the outermost frame of `registration` with the same arguments to this one, if
    /// `registration` is on this path: a cycle. Walks the path once, without copying it.
    func cycle(back registration: any AnyRegistration, argumentHash: Int?) -> [ResolutionError.Step]? {
        if registration.takesArguments && argumentHash == nil { return nil }
        var outermost: AsyncFrame?
        var next: AsyncFrame? = self
        while let frame = next {
            if frame.registration === registration && frame.argumentHash == argumentHash { outermost = frame }
            next = frame.outer
        }
        guard let outermost else { return nil }
        return Array(steps.dropFirst(outermost.depth - 1))
    }
}
