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
    /// Its runtime arguments, with their hash if the registration recurs on the path: a deep
    /// recursion's cycle checks compare it first.
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
        _ binding: Binding,
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

    /// The nearest registration on the path from this frame out that is not a ``Lazy``'s own:
    /// what a dry run records as depending on what this frame resolves (a `Lazy` read in a
    /// factory is that factory's dependency).
    var dependent: Binding? {
        chain.first { !$0.binding.isLazys }?.binding
    }

    /// The path from the outermost service to this one.
    var steps: [ResolutionError.Step] {
        chain.map(\.binding.step).reversed()
    }

    /// The cycle back to `binding` with `values` from this frame (``Cycle``).
    func cycle(back binding: Binding, _ values: ArgumentValues?) -> (cycle: [ResolutionError.Step]?, recurs: Bool) {
        guard chain.contains(where: { $0.binding === binding }) else { return (nil, false) }
        var cycle = Cycle(back: binding, values)
        for frame in chain where !cycle.visit(frame) { break }
        return cycle.result(on: steps)
    }

    /// The search of a path, from its innermost frame outward, for the outermost frame making
    /// `binding` with `values`: the path from there in is a cycle. It also finds whether `binding`
    /// is on the path at all (with other arguments: a recursion, not a cycle).
    struct Cycle {
        let binding: Binding
        let values: ArgumentValues?
        private var recurs = false
        /// `values`, hashed at the first frame of `binding`: a deep recursion compares hashes first.
        private var hashed: ArgumentValues?
        private var outermost: Int?

        init(back binding: Binding, _ values: ArgumentValues?) {
            self.binding = binding
            self.values = values
        }

        /// Visits a frame of `binding` at `depth` whose arguments have `hash` (if hashed); whether
        /// to go on.
        mutating func visit(hash: Int?, depth: Int, arguments: () -> ArgumentValues?) -> Bool {
            if !recurs {
                recurs = true
                hashed = values?.hashed
            }
            // Values that are not `Hashable` match none: no frame need compare them.
            if values != nil, hashed?.hash == nil { return false }
            if let mine = hashed?.hash, let hash, mine != hash { return true }
            if arguments().matches(hashed) { outermost = depth }
            return true
        }

        mutating func visit(_ frame: Frame) -> Bool {
            frame.binding !== binding || visit(hash: frame.arguments?.hash, depth: frame.depth) { frame.arguments }
        }

        /// The cycle on `path` (from the outermost service to the innermost frame visited), and
        /// whether `binding` recurs.
        func result(on path: @autoclosure () -> [ResolutionError.Step]) -> (
            cycle: [ResolutionError.Step]?, recurs: Bool
        ) {
            guard let outermost else { return (nil, recurs) }
            return (Array(path().dropFirst(outermost - 1)), true)
        }
    }
}

extension Optional where Wrapped == Frame {
    /// The path to this frame, or none.
    var steps: [ResolutionError.Step] { self?.steps ?? [] }
}
