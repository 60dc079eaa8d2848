/// One service a resolve is making (or completing), linked to the one it is made for: the path
/// that cycle checks walk and errors show.
///
/// Immutable, so that the path travels with an ``AsyncResolution`` across `await` and into the
/// child tasks of a factory, each of which extends it on its own. A nested top-level resolve's
/// first frame continues the path of the factory that started it.
@usableFromInline
final class Frame: @unchecked Sendable {
    // `@unchecked Sendable` for `arguments` only: the values are read by the resolve they belong
    // to, and by the tasks its factories await.
    let resolve: Resolve
    let binding: Binding
    let arguments: ArgumentValues?
    /// `arguments`' hash, if it was taken (a registration that recurs on the path): a deep
    /// recursion's cycle checks compare it first.
    let argumentsHash: Int?
    let outer: Frame?
    /// How many frames deep this is, across nested resolves: 1 for the outermost.
    let depth: Int
    /// The shared instance this frame makes, or completes, if its scope shares one.
    let creation: Creation?
    /// Whether this frame runs a completion (`initCompleted`, auto-injection) rather than a factory.
    let isCompletion: Bool

    init(
        _ resolve: Resolve,
        _ binding: Binding,
        arguments: ArgumentValues?,
        outer: Frame?,
        creation: Creation?,
        isCompletion: Bool = false
    ) {
        self.resolve = resolve
        self.binding = binding
        self.arguments = arguments
        argumentsHash = arguments?.hash
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

    /// The path from the outermost frame making (or completing) `binding` with `values` to this
    /// one, if there is one on the path: a cycle. `recurs` says whether `binding` is on the path at
    /// all (with other arguments: a recursion, not a cycle).
    func cycle(back binding: Binding, _ values: ArgumentValues?) -> (cycle: [ResolutionError.Step]?, recurs: Bool) {
        var outermost: Frame?
        var recurs = false
        // Hashed at the first frame of `binding`: a deep recursion compares hashes first.
        var hashed = values
        var hash: Int?
        var next: Frame? = self
        while let frame = next {
            next = frame.outer
            guard frame.binding === binding else { continue }
            if !recurs {
                recurs = true
                hashed = values?.hashed
                hash = hashed?.hash
            }
            // Values that are not `Hashable` match none: no frame need compare them.
            if values != nil, hash == nil { break }
            if let hash, let other = frame.argumentsHash, hash != other { continue }
            if frame.arguments.matches(hashed) { outermost = frame }
        }
        guard let outermost else { return (nil, recurs) }
        return (Array(steps.dropFirst(outermost.depth - 1)), true)
    }
}

extension Optional where Wrapped == Frame {
    /// The path to this frame, or none.
    var steps: [ResolutionError.Step] { self?.steps ?? [] }
}
