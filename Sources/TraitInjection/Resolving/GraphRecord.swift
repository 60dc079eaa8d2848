/// The `.graph` instances a ``Lazy`` resolves in when it is first read: those its *maker*, the
/// resolve that made the `Lazy`, made or used — once that resolve, and the outermost resolve it is
/// nested in (its *root*), have succeeded.
///
/// - **Nothing before that.** While they run, the graph's instances may still wait for their
///   `initCompleted` closures, and the resolves may still fail: a `Lazy` read then (in a factory,
///   an `initCompleted`, on another thread) resolves in a graph of its own. So does one whose
///   maker or root failed, or whose maker ended after its root (a task it did not await).
/// - **Then, the objects, held weakly**: a `Lazy` gets one while something else holds it, and makes
///   a new one once it is gone. A value type's instance is a copy anyway, and is not kept; nor is
///   an instance made with runtime arguments, whose values the record would hold.
/// - **Only what the maker had.** What a `Lazy`'s own first read makes is its own: two `Lazy`s of
///   one graph share an instance only if the maker's graph had it. A first read's graph holds what
///   it found in its maker's record too, so a `Lazy` made in it sees all of it, with no chain.
///
/// The root settles the records made in its tree when it ends (``Resolve/next(_:describing:)``,
/// ``Resolve/fail()``). Lock order: a resolve's lock, then a record's.
final class GraphRecord: Sendable {
    private struct Remembered {
        let binding: WeakReference
        let lookup: WeakReference
        let instance: WeakReference
    }

    private enum Phase {
        /// Its maker runs, or has succeeded and waits for its root (`graph`).
        case pending(graph: [Remembered]?)
        case published([Remembered])
        /// Its maker or root failed, or its maker ended after the root had settled it.
        case discarded
    }

    private let phase = Locked(Phase.pending(graph: nil))

    init() {}

    /// The graph's instance of `binding` from `lookup`, if the record is published and it is
    /// still there.
    func instance(of binding: Binding, from lookup: Container) -> Any? {
        phase.withLock { phase -> Any? in
            guard case .published(let graph) = phase else { return nil }
            return graph.last { $0.binding.object === binding && $0.lookup.object === lookup }?.instance.object
        }
    }

    /// Records the graph of the maker, which has succeeded; published when the root succeeds (at
    /// once if the maker is the root).
    func remember(_ graph: [GraphEntry], isRoot: Bool) {
        let remembered = graph.compactMap { entry -> Remembered? in
            guard entry.arguments == nil, type(of: entry.instance) is AnyClass else { return nil }
            return Remembered(
                binding: WeakReference(entry.binding), lookup: WeakReference(entry.lookup),
                instance: WeakReference(entry.instance as AnyObject))
        }
        phase.withLock { phase in
            guard case .pending(nil) = phase else { return }  // Settled already: the root has ended.
            phase = isRoot ? .published(remembered) : .pending(graph: remembered)
        }
    }

    /// The root's end: publishes the maker's graph if the root `succeeded` and the maker had.
    func settle(succeeded: Bool) {
        phase.withLock { phase in
            guard case .pending(let graph) = phase else { return }
            phase = succeeded ? graph.map { .published($0) } ?? .discarded : .discarded
        }
    }
}
