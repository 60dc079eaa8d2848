/// The `.graph` instances of a resolve in which a ``Lazy`` was made, for the `Lazy` to resolve in
/// that graph when it is first read — during the resolve or after it.
///
/// While the resolve runs, the record looks into its graph, which holds the instances. When it
/// succeeds, the record keeps the objects weakly (a value type's instance is a copy anyway, and
/// is not kept): a `Lazy` gets the graph's instance while something else holds it, and a new one
/// in its own graph once it is gone. What a `Lazy`'s resolve makes joins the record, so the other
/// `Lazy`s of the graph share it. A failed resolve leaves nothing in it.
///
/// Lock order: a resolve's lock, then the record's (``Resolve/next(_:describing:)``).
final class GraphRecord: Sendable {
    private struct Remembered {
        let binding: Binding
        let lookup: WeakReference
        let arguments: ArgumentValues?
        let instance: WeakReference
    }

    private struct State {
        /// The resolve that made the record, while it runs (weak: that resolve holds the record).
        weak var running: Resolve?
        var remembered: [Remembered] = []
    }

    private let state: Locked<State>

    init(of resolve: Resolve) {
        state = Locked(State(running: resolve))
    }

    /// The graph's instance of `binding` from `lookup` with these arguments, if it is still there.
    func instance(of binding: Binding, from lookup: Container, _ values: ArgumentValues?) -> Any? {
        let (running, remembered) = state.withLock { state in
            (
                state.running,
                state.remembered.last {
                    $0.binding === binding && $0.lookup.object === lookup && $0.arguments.matches(values)
                }
            )
        }
        if let running { return running.graphInstance(binding, from: lookup, values) }
        return remembered?.instance.object
    }

    /// Keeps the objects of `graph`, weakly, once the resolve that made them has succeeded; the
    /// resolve that made the record runs no longer.
    func remember(_ graph: [Resolve.GraphEntry], endedBy resolve: Resolve) {
        state.withLock { state in
            if state.running === resolve { state.running = nil }
            state.remembered.removeAll { $0.instance.object == nil }
            for entry in graph where type(of: entry.instance) is AnyClass {
                let object = entry.instance as AnyObject
                state.remembered.append(
                    Remembered(
                        binding: entry.binding, lookup: WeakReference(entry.lookup), arguments: entry.arguments,
                        instance: WeakReference(object)))
            }
        }
    }

    /// Forgets the resolve that made the record, which failed: what it made is gone.
    func forget(_ resolve: Resolve) {
        state.withLock { state in
            if state.running === resolve { state.running = nil }
        }
    }
}
