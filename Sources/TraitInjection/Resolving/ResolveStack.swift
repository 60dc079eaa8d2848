import Synchronization

/// The synchronous resolves a thread runs, as plain records on a stack of its own: each top-level
/// resolve, each service being made (a *frame*), and the `.graph` instances of those resolves.
///
/// A resolve that makes only what it returns touches nothing else: no lock, no object but its
/// instance (the records' storage is kept from one resolve to the next). The shared machinery —
/// claims and waits for shared instances, queued completions, a ``Lazy``'s graph record, async
/// resolves — works on ``Resolve`` and ``Frame`` objects; the stack makes them for its records
/// only when such a path needs them (``heavy(_:)``, ``frame(_:)``), and keeps each, so that a
/// record has one identity for the whole of its life.
///
/// A *position* in the stack is a top record `t` and a frame `f` in it, `-1` at its top: what
/// a ``Resolution`` stands for. A top lives from its ``begin(_:nested:makesOne:findings:inheriting:)``
/// to its ``end(_:)``, and the frames made in it as long as it does (a resolver stays valid while
/// its top-level resolve lasts): `innermost` says which frame's factory runs now. A record's
/// `serial` (unique in the process) tells a live one from a later one at the same index.
final class ResolveStack: @unchecked Sendable {
    // `@unchecked Sendable`: used by one thread at a time — the thread it belongs to, or, while
    // that thread waits for it, a helper thread with a larger stack (``LargerStack``), whose start
    // and join order their accesses.

    /// A top-level resolve, or a synchronous part of an async one (a *section*).
    struct Top {
        /// What few tops have, out of the way of the others (each reference a top holds is
        /// retained and released with it).
        final class Rare {
            /// The frame of an async resolve it continues (it has no entry).
            let tail: Frame?
            let inherited: GraphRecord?
            /// The async resolve its synchronous parts unwind to, to wait by suspending.
            let unwindsTo: Resolve?

            init(tail: Frame?, inherited: GraphRecord?, unwindsTo: Resolve?) {
                self.tail = tail
                self.inherited = inherited
                self.unwindsTo = unwindsTo
            }
        }

        /// Where resolves at its top look up.
        let container: Container
        /// The frame here whose factory started it (it continues that path), or `-1`.
        let entry: Int
        let graphStart: Int
        let frameStart: Int
        let serial: UInt64
        /// A plain `resolve`: nothing of it asks for its top instance's `.graph` entry afterwards.
        let makesOne: Bool
        /// A synchronous resolve in an async factory: it blocks, as any synchronous resolve.
        let blocks: Bool
        /// A synchronous part of `heavy`, an async resolve, which goes on after it.
        let isSection: Bool
        /// Traced, or a dry run: then it has a `heavy` resolve from the start.
        let isObserved: Bool
        let rare: Rare?
        var heavy: Resolve?

        var tail: Frame? { rare?.tail }
        var inherited: GraphRecord? { rare?.inherited }
        var unwindsTo: Resolve? { rare?.unwindsTo }
    }

    /// A service being made (or completed) for the top `top`, for the frame `outer` (`-1`: the
    /// top's entry or tail).
    struct Level {
        let binding: Binding
        /// Where its factory's resolves look up, if not its top's container (``lookup(of:)``):
        /// each reference a record holds is retained and released with it.
        let lookup: Container?
        /// Where its runtime arguments are in `arguments` while it runs, or `-1`.
        var argumentsIndex: Int
        let top: Int
        let outer: Int
        let depth: Int
        let serial: UInt64
        let creation: Creation?
        let isCompletion: Bool
        /// The innermost frame when it was pushed, again when it is popped.
        let restores: Int
        var heavy: Frame?
    }

    /// What a walk along a path reads of a frame, in plain values: cycle checks touch no
    /// reference unless a registration and its arguments' hash match.
    struct Link {
        let binding: ObjectIdentifier
        let top: Int
        let outer: Int
        let depth: Int
        /// The hash of its arguments, if they were hashed (the registration recurs).
        let hash: Int?
    }

    private struct Storage {
        var tops: [Top] = []
        var frames: [Level] = []
        /// `frames`' links, at the same indices: plain values, so the array only grows (what is
        /// past `frames.count` is stale, and overwritten), and ending a top destroys nothing here.
        var links: [Link] = []
        /// The runtime arguments of the running frames that have some, innermost last: only a
        /// running frame's are compared (cycles, graph instances), and this way a resolve
        /// without arguments copies none.
        var arguments: [ArgumentValues] = []
        /// The frame whose factory or completion runs now, `-1` if none here.
        var innermost = -1
        /// The `.graph` instances of the tops that are not sections, each top's from its
        /// `graphStart`.
        var graph: [GraphEntry] = []
        var lastSerial: UInt64
        /// How many of `tops` are observed (traced, or a dry run).
        var observedTops = 0
    }

    /// The stack's state, at an address of its own. Reached through it, an access is not checked
    /// for exclusivity at run time, as an access to a class's `var` would be (about 60
    /// instructions each, dozens of times a resolve: 2,000 of a transient's 6,000 in the release
    /// harness). What the checks would catch cannot happen: no access spans a call out of the
    /// engine (each reads or writes, and ends), and the arrays' buffers never leave the stack, so
    /// a mutation never copies one whose elements a `deinit` could reach.
    private let storage = UnsafeMutablePointer<Storage>.allocate(capacity: 1)

    /// Serials are unique across stacks, each taking a range of its own, so that a resolver used
    /// on another thread's stack is never taken for one of its own.
    private static let stacks = Mutex<UInt64>(0)

    init() {
        let range = Self.stacks.withLock { stacks in
            stacks += 1
            return stacks << 32
        }
        storage.initialize(to: Storage(lastSerial: range))
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    // The state's parts (`_read` and `_modify`, to borrow rather than copy).
    var tops: [Top] { _read { yield storage.pointee.tops } }
    var frames: [Level] { _read { yield storage.pointee.frames } }
    private var links: [Link] { _read { yield storage.pointee.links } }
    var innermost: Int { storage.pointee.innermost }
    var observedTops: Int { storage.pointee.observedTops }
    var graph: [GraphEntry] {
        _read { yield storage.pointee.graph }
        _modify { yield &storage.pointee.graph }
    }

    private func nextSerial() -> UInt64 {
        storage.pointee.lastSerial &+= 1
        return storage.pointee.lastSerial
    }

    // MARK: Tops

    /// Pushes a top-level resolve from `container`: unless `nested` is `false`, nested in the
    /// resolve of the innermost frame here, or else of the async factory this task runs.
    func begin(
        _ container: Container,
        nested: Bool = true,
        makesOne: Bool = false,
        findings: DryRunFindings? = nil,
        inheriting inherited: GraphRecord? = nil
    ) -> Int {
        var entry = -1
        var tail: Frame?
        if nested {
            if innermost >= 0 {
                entry = innermost
            } else {
                tail = Resolve.runningTaskFrame  // In an async factory: nested in its resolve, but blocking.
            }
        }
        let outer = entry >= 0 ? frames[entry].top : -1
        let unwindsTo = outer >= 0 ? tops[outer].unwindsTo : nil
        let isObserved =
            findings != nil || container.isTraced || (outer >= 0 && tops[outer].isObserved)
            || tail?.resolve.isObserved == true
        let rare =
            tail == nil && inherited == nil && unwindsTo == nil
            ? nil : Top.Rare(tail: tail, inherited: inherited, unwindsTo: unwindsTo)
        storage.pointee.tops.append(
            Top(
                container: container, entry: entry, graphStart: graph.count, frameStart: frames.count,
                serial: nextSerial(), makesOne: makesOne && unwindsTo == nil, blocks: tail != nil, isSection: false,
                isObserved: isObserved, rare: rare, heavy: nil))
        let t = tops.count - 1
        if tops[t].isObserved {
            storage.pointee.observedTops += 1
            _ = heavy(t, findings: findings)
        }
        return t
    }

    /// Pushes a synchronous part of `resolve`, an async resolve, at `frame`, looking up from
    /// `lookup`.
    func beginSection(of resolve: Resolve, at frame: Frame?, from lookup: Container) -> Int {
        storage.pointee.tops.append(
            Top(
                container: lookup, entry: -1, graphStart: graph.count, frameStart: frames.count, serial: nextSerial(),
                makesOne: false, blocks: false, isSection: true, isObserved: resolve.isObserved,
                rare: Top.Rare(
                    tail: frame, inherited: nil, unwindsTo: resolve.isAsync ? resolve.suspensionOwner : nil),
                heavy: resolve))
        if resolve.isObserved { storage.pointee.observedTops += 1 }
        return tops.count - 1
    }

    /// Ends a successful top-level resolve: runs its completions (and those they queue), waits
    /// for what it handed over to be published, publishes what it made, and pops it.
    func finish(_ t: Int, describing service: @autoclosure () -> String) throws(ResolutionError) {
        if let resolve = tops[t].heavy {
            var runs = 0
            loop: while true {
                switch try resolve.next(&runs, graph: graphEntries(of: t), describing: service()) {
                case .run(let pending): try run(pending, at: t)
                case .waitFor(let handedOver): _ = try Waits.shared.wait(for: handedOver, by: resolve, at: nil)
                case .ended: break loop
                }
            }
        }
        end(t)
    }

    /// Undoes a failed top-level resolve, and pops it.
    func fail(_ t: Int) {
        tops[t].heavy?.fail()
        end(t)
    }

    /// Pops top `t` (the innermost), letting go of its frames and `.graph` instances one at a
    /// time: a `deinit` may resolve on this thread.
    func end(_ t: Int) {
        let (frameStart, graphStart) = (tops[t].frameStart, tops[t].graphStart)
        while frames.count > frameStart { _ = storage.pointee.frames.removeLast() }
        if !tops[t].isSection {
            while graph.count > graphStart { _ = graph.removeLast() }
        }
        if storage.pointee.tops.removeLast().isObserved { storage.pointee.observedTops -= 1 }
    }

    /// Whether top `t` is still the one with `serial`.
    func isLive(top t: Int, _ serial: UInt64) -> Bool { t < tops.count && tops[t].serial == serial }

    /// Whether frame `f` is still the one with `serial`.
    func isLive(frame f: Int, _ serial: UInt64) -> Bool { f < frames.count && frames[f].serial == serial }

    // MARK: Frames

    /// Pushes the frame that makes `binding` at position (`t`, `f`), after the checks for a cycle
    /// and for depth; `creation` is given up if one fails.
    func enter(
        _ binding: Binding,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        creating creation: Creation?,
        _ values: ArgumentValues?
    ) throws(ResolutionError) -> Int {
        let (cycle, recurs) = self.cycle(back: binding, values, at: t, f)
        let depth = depth(at: t, f)
        if let cycle {
            abandon(creation, at: t, because: nil)
            throw ResolutionError(kind: .cycle, service: binding.step.service, path: cycle)
        }
        if depth >= Resolve.maximumDepth {
            abandon(creation, at: t, because: nil)
            throw ResolutionError(
                kind: .tooDeep, service: binding.step.service, path: Array(steps(at: t, f).prefix(5)),
                depth: depth + 1)
        }
        // Arguments are copied only where there are some: a copy of an `ArgumentValues?`, even of
        // `nil`, goes through its type's value witnesses.
        var hash: Int?
        var argumentsIndex = -1
        if let values {
            let stored = recurs ? values.hashed : values
            hash = stored.hash
            storage.pointee.arguments.append(stored)
            argumentsIndex = storage.pointee.arguments.count - 1
        }
        return push(
            binding, lookup: lookup, argumentsIndex: argumentsIndex, hash: hash, top: t, outer: outer(t, f),
            depth: depth + 1, creation: creation, isCompletion: false)
    }

    /// Pushes the frame of a completion of top `t`, which runs on its entry's path.
    func enterCompletion(_ pending: Resolve.Pending, at t: Int) -> Int {
        push(
            pending.binding, lookup: pending.lookup, argumentsIndex: -1, hash: nil, top: t, outer: outer(t, -1),
            depth: depth(at: t, -1) + 1, creation: pending.creation, isCompletion: true)
    }

    private func push(
        _ binding: Binding,
        lookup: Container,
        argumentsIndex: Int,
        hash: Int?,
        top t: Int,
        outer: Int,
        depth: Int,
        creation: Creation?,
        isCompletion: Bool
    ) -> Int {
        let link = Link(binding: ObjectIdentifier(binding), top: t, outer: outer, depth: depth, hash: hash)
        if links.count > frames.count {
            storage.pointee.links[frames.count] = link
        } else {
            storage.pointee.links.append(link)
        }
        storage.pointee.frames.append(
            Level(
                binding: binding, lookup: lookup === tops[t].container ? nil : lookup, argumentsIndex: argumentsIndex,
                top: t, outer: outer, depth: depth,
                serial: nextSerial(), creation: creation, isCompletion: isCompletion, restores: innermost, heavy: nil))
        let f = frames.count - 1
        storage.pointee.innermost = f
        if let creation, !isCompletion { Waits.shared.creating(creation, at: frame(f)) }
        return f
    }

    /// Ends the run of frame `f`, the innermost: it stays, with its top, for its resolvers.
    func pop(_ f: Int) {
        storage.pointee.innermost = frames[f].restores
        if frames[f].argumentsIndex >= 0 {
            storage.pointee.frames[f].argumentsIndex = -1
            _ = storage.pointee.arguments.removeLast()
        }
    }

    /// Where the resolves of frame `f`'s factory look up.
    func lookup(of f: Int) -> Container {
        frames[f].lookup ?? tops[frames[f].top].container
    }

    /// The runtime arguments of frame `f`, while it runs.
    func arguments(of f: Int) -> ArgumentValues? {
        let index = frames[f].argumentsIndex
        return index >= 0 ? storage.pointee.arguments[index] : nil
    }

    /// The frame here that position (`t`, `f`) stands for: `f`, or at the top of `t` its entry
    /// (`-1`: none here; the top's `tail` goes on from there).
    func outer(_ t: Int, _ f: Int) -> Int { f >= 0 ? f : tops[t].entry }

    /// How deep position (`t`, `f`) is, across nested resolves and async ones.
    func depth(at t: Int, _ f: Int) -> Int {
        let f = outer(t, f)
        return f >= 0 ? frames[f].depth : tops[t].tail?.depth ?? 0
    }

    /// Visits the frames here from position (`t`, `f`) outward, innermost first, while `visit`
    /// says so; the async frame the path goes on with beyond them, if it got there.
    private func walk(from t: Int, _ f: Int, _ visit: (Int) -> Bool) -> Frame? {
        var f = outer(t, f)
        var tail = tops[t].tail
        while f >= 0 {
            guard visit(f) else { return nil }
            if links[f].outer < 0 { tail = tops[links[f].top].tail }
            f = links[f].outer
        }
        return tail
    }

    /// The path from the outermost service to position (`t`, `f`).
    func steps(at t: Int, _ f: Int) -> [ResolutionError.Step] {
        var steps: [ResolutionError.Step] = []
        let tail = walk(from: t, f) { f in
            steps.append(frames[f].binding.step)
            return true
        }
        return tail.steps + steps.reversed()
    }

    /// The cycle back to `binding` with `values` from position (`t`, `f`), if there is one
    /// (``Frame/Cycle``).
    func cycle(back binding: Binding, _ values: ArgumentValues?, at t: Int, _ f: Int)
        -> (cycle: [ResolutionError.Step]?, recurs: Bool)
    {
        let start = outer(t, f)
        if start < 0, tops[t].rare == nil { return (nil, false) }  // No path: a top-level resolve.
        let id = ObjectIdentifier(binding)
        let links = links  // One read of the array: the walks below touch no reference.
        var f = start
        var tail = tops[t].tail
        // Most paths do not hold the registration at all: identities first.
        while f >= 0, links[f].binding != id {
            if links[f].outer < 0 { tail = tops[links[f].top].tail }
            f = links[f].outer
        }
        if f < 0, tail?.chain.contains(where: { $0.binding === binding }) != true { return (nil, false) }
        var cycle = Frame.Cycle(back: binding, values)
        f = start
        tail = tops[t].tail
        while f >= 0 {
            let link = links[f]
            if link.binding == id, !cycle.visit(hash: link.hash, depth: link.depth, arguments: { arguments(of: f) }) {
                return cycle.result(on: steps(at: t, start))
            }
            if link.outer < 0 { tail = tops[link.top].tail }
            f = link.outer
        }
        var frame = tail
        while let next = frame, cycle.visit(next) { frame = next.outer }
        return cycle.result(on: steps(at: t, start))
    }

    // MARK: Objects for the shared machinery

    /// The ``Resolve`` of top `t`, made now if it has none.
    func heavy(_ t: Int, findings: DryRunFindings? = nil) -> Resolve {
        if let heavy = tops[t].heavy { return heavy }
        let top = tops[t]
        let made = Resolve(
            top.container, entry: top.entry >= 0 ? frame(top.entry) : top.tail, isAsync: false, blocks: top.blocks,
            makesOne: top.makesOne, findings: findings, inheriting: top.inherited)
        storage.pointee.tops[t].heavy = made
        return made
    }

    /// The ``Frame`` of frame `f`, made now (with those of its outer frames) if it has none.
    func frame(_ f: Int) -> Frame {
        var unmade: [Int] = []
        var f = f
        var outer: Frame?
        while true {
            if let made = frames[f].heavy {
                outer = made
                break
            }
            unmade.append(f)
            guard frames[f].outer >= 0 else {
                outer = tops[frames[f].top].tail
                break
            }
            f = frames[f].outer
        }
        for f in unmade.reversed() {
            let level = frames[f]
            let made = Frame(
                heavy(level.top), level.binding, arguments: arguments(of: f), outer: outer, creation: level.creation,
                isCompletion: level.isCompletion)
            storage.pointee.frames[f].heavy = made
            outer = made
        }
        return outer!
    }

    /// Position (`t`, `f`) as a ``Frame``: frame `f`, or at the top of `t` its entry (or tail).
    func frame(at t: Int, _ f: Int) -> Frame? {
        let f = outer(t, f)
        return f >= 0 ? frame(f) : tops[t].tail
    }

    // MARK: The graph

    /// The `.graph` instances of top `t`.
    func graphEntries(of t: Int) -> [GraphEntry] {
        graph[tops[t].graphStart...].filter { $0.top == t }
    }
}
