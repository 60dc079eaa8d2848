/// The `.graph` instances a ``Lazy`` resolves in when it is first read: those of the resolve that
/// made it (its *maker*), then those of the graph the maker itself inherited (`parent`).
///
/// Who sees what:
///
/// - **The maker's live graph**, while it runs, to the resolves of its tree only (its outermost
///   resolve and the resolves nested in it). Another thread's resolve would get instances whose
///   `initCompleted` may not have run, of a resolve that may still fail: it makes its own.
/// - **What a resolve of the tree adds** while the tree's outermost resolve (its *root*) runs is
///   provisional: seen by the tree only, kept when the root succeeds, dropped when it fails.
/// - **Afterwards, the objects, held weakly**: a `Lazy` gets one while something else holds it,
///   and makes a new one once it is gone. A value type's instance is a copy anyway, and is not
///   kept; nor is an instance made with runtime arguments, whose values the record would hold.
///
/// The root settles the records made in its tree when it ends (``Resolve/next(_:describing:)``,
/// ``Resolve/fail()``). Lock order: a resolve's lock, then a record's; a record calls a resolve
/// with its own lock released.
final class GraphRecord: Sendable {
    private struct Remembered {
        let binding: WeakReference
        let lookup: WeakReference
        let instance: WeakReference
        var isProvisional: Bool
    }

    private struct State {
        weak var maker: Resolve?
        /// The maker's outermost resolve, until it ends.
        weak var root: Resolve?
        var remembered: [Remembered] = []
    }

    /// The graph the maker inherited, if it is the first read of another `Lazy`.
    let parent: GraphRecord?
    private let state: Locked<State>

    init(madeBy maker: Resolve, parent: GraphRecord?) {
        self.parent = parent
        state = Locked(State(maker: maker, root: maker.root))
    }

    /// The instance of `binding` from `lookup` with these arguments that `asker` may use, if the
    /// graph has one.
    func instance(of binding: Binding, from lookup: Container, _ values: ArgumentValues?, for asker: Resolve) -> Any? {
        let (live, kept) = state.withLock { state -> (Resolve?, Any?) in
            let inTree = state.root.map { asker.isInTree(of: $0) } ?? false
            let kept = state.remembered.last { entry in
                (inTree || !entry.isProvisional) && entry.binding.object === binding && entry.lookup.object === lookup
            }
            return (inTree ? state.maker : nil, values == nil ? kept?.instance.object : nil)
        }
        if let live, live.isRunning, let instance = live.graphInstance(binding, from: lookup, values, for: asker) {
            return instance
        }
        return kept ?? parent?.instance(of: binding, from: lookup, values, for: asker)
    }

    /// Keeps the objects of `graph`, made by `resolve`, which has succeeded: provisionally if it
    /// is nested in the root, which still runs.
    func remember(_ graph: [Resolve.GraphEntry], endedBy resolve: Resolve) {
        state.withLock { state in
            if state.maker === resolve { state.maker = nil }
            let isProvisional =
                if let root = state.root, root !== resolve, root.isRunning, resolve.isInTree(of: root) { true } else {
                    false
                }
            state.remembered.removeAll { $0.instance.object == nil }
            for entry in graph where entry.arguments == nil && type(of: entry.instance) is AnyClass {
                state.remembered.append(
                    Remembered(
                        binding: WeakReference(entry.binding), lookup: WeakReference(entry.lookup),
                        instance: WeakReference(entry.instance as AnyObject), isProvisional: isProvisional))
            }
        }
    }

    /// Ends the root's hold: keeps what its tree added if it `succeeded`, drops it if not.
    func settle(succeeded: Bool) {
        state.withLock { state in
            state.root = nil
            state.maker = nil
            if succeeded {
                for index in state.remembered.indices { state.remembered[index].isProvisional = false }
            } else {
                state.remembered.removeAll { $0.isProvisional }
            }
        }
    }
}
