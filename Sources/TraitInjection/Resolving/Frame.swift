/// One service a resolve is making (or completing), linked to the one it is made for: the path
/// that cycle checks walk and errors show.
///
/// Immutable, so that the path travels with an ``AsyncResolution`` across `await` and into the
/// child tasks of a factory, each of which extends it on its own. A nested top-level resolve's
/// first frame continues the path of the factory that started it.
final class Frame: @unchecked Sendable {
    // `@unchecked Sendable` for `arguments` only: the values are read by the resolve they belong
    // to, and by the tasks its factories await.
    let resolve: Resolve
    let binding: any AnyBinding
    let arguments: ArgumentValues?
    let outer: Frame?
    /// How many frames deep this is, across nested resolves: 1 for the outermost.
    let depth: Int
    /// The shared instance this frame makes, or completes, if its scope shares one.
    let creation: Creation?
    /// Whether this frame runs a completion (`initCompleted`, auto-injection) rather than a factory.
    let isCompletion: Bool

    init(
        _ resolve: Resolve,
        _ binding: any AnyBinding,
        arguments: ArgumentValues?,
        outer: Frame?,
        creation: Creation?,
        isCompletion: Bool = false
    ) {
        self.resolve = resolve
        self.binding = binding
        self.arguments = arguments
        self.outer = outer
        depth = (outer?.depth ?? 0) + 1
        self.creation = creation
        self.isCompletion = isCompletion
    }

    /// The frames from this one out to the outermost.
    var chain: some Sequence<Frame> {
        sequence(first: self, next: \.outer)
    }

    /// The path from the outermost service to this one.
    var steps: [ResolutionError.Step] {
        chain.map(\.binding.step).reversed()
    }

    /// The path from the outermost frame making (or completing) `binding` with these `arguments`
    /// to this one, if there is one on the path: a cycle. `recurs` says whether `binding` is on
    /// the path at all (with other arguments: a recursion, not a cycle).
    func cycle<each Argument>(
        back binding: any AnyBinding,
        _ arguments: repeat each Argument
    ) -> (cycle: [ResolutionError.Step]?, recurs: Bool) {
        var outermost: Frame?
        var recurs = false
        var hash: Int??
        var next: Frame? = self
        while let frame = next {
            next = frame.outer
            guard frame.binding === binding else { continue }
            recurs = true
            guard let values = frame.arguments else {
                outermost = frame
                continue
            }
            if hash == nil { hash = ArgumentValues.hash(repeat each arguments) }
            guard let hash = hash ?? nil else { return (nil, true) }  // Not `Hashable`: never a cycle.
            if values.hash.map({ $0 == hash }) ?? true, values.matches(repeat each arguments, hash: hash) {
                outermost = frame
            }
        }
        guard let outermost else { return (nil, recurs) }
        return (Array(steps.dropFirst(outermost.depth - 1)), true)
    }
}

extension Optional where Wrapped == Frame {
    /// The path to this frame, or none.
    var steps: [ResolutionError.Step] { self?.steps ?? [] }
}
