import Synchronization

/// The synchronous resolves a thread runs, as plain records on a stack of its own: each top-level
/// resolve (a *top*), each service being made (a *frame*), and the `.graph` instances of the tops.
///
/// A resolve that makes only what it returns touches nothing else: no lock, no object but its
/// instance (the records' storage is kept from one resolve to the next), no reference counted.
/// The shared machinery — claims and waits for shared instances, queued completions, a ``Lazy``'s
/// graph record, async resolves — works on ``Resolve`` and ``Frame`` objects; the stack makes
/// them for its records only when such a path needs them (``heavy(_:findings:)``, ``frame(_:)``),
/// and keeps each, so that a record has one identity for the whole of its life.
///
/// A *position* is a top `t` and a frame `f` in it, `-1` at its top: what a ``Resolution`` stands
/// for. A top lives from ``begin(_:nested:makesOne:findings:inheriting:)`` to ``end(_:)``, and the
/// frames made in it as long as it does (a resolver stays valid while its top-level resolve
/// lasts); a frame *runs* from ``enter(_:from:at:_:creating:_:)`` to ``pop(_:)``. A record's
/// `serial` (unique in the process) tells a live one from a later one at the same index.
///
/// **The borrowing rule.** The records hold no references of their own, only ``Borrowed`` ones:
/// - a top's `container` is held by the call that began the top (`container.resolve` holds
///   `self`, a section its `lookup`), which ends it;
/// - a frame's `lookup`, if it differs from its top's container, is that container's or one of
///   its parents' (a shared instance is made from its owner's registrations) or, in a dry run, the
///   checked container: the top's container holds it;
/// - a frame's `binding` is held by the resolve that runs the frame (``make``, which holds the
///   binding it read, or ``run(_:at:)``, which holds the completion), and is read only while the
///   frame runs: the path from a running frame goes through running frames only, and a resolver
///   of a frame that has ended resolves from its top (``position(of:)``);
/// - a frame's runtime `arguments` are held, by address (``Arguments``), by the call that the
///   resolve entered the engine by (``ArgumentValues/withPointer(for:_:_:)``), which returns only
///   after the frame has ended: read only while it runs, and let go of when it ends (``pop(_:)``).
/// What few records hold strongly (a creation, a made ``Frame`` or ``Resolve``, an async tail) is
/// kept apart, in `topObjects` and `frameObjects`.
final class ResolveStack: @unchecked Sendable {
    // `@unchecked Sendable`: used by one thread at a time — the thread it belongs to, or, while
    // that thread waits for it, a helper thread with a larger stack (``LargerStack``), whose start
    // and join order their accesses.

    /// A top-level resolve, or a synchronous part of an async one (a *section*).
    struct Top {
        /// Where resolves at its top look up.
        let container: Borrowed<Container>
        /// The frame here whose factory started it (it continues that path), or `-1`.
        let entry: Int
        let graphStart: Int
        let frameStart: Int
        let serial: UInt64
        /// A plain `resolve`: nothing of it asks for its top instance's `.graph` entry afterwards.
        let makesOne: Bool
        /// A synchronous resolve in an async factory: it blocks, as any synchronous resolve.
        let blocks: Bool
        /// A synchronous part of its ``Resolve``, an async resolve, which goes on after it.
        let isSection: Bool
        /// Traced, or a dry run: then it has a ``Resolve`` from the start.
        let isObserved: Bool
        /// Whether it has an entry in `topObjects`.
        var hasObjects: Bool
        /// Whether records of an outer top (a frame, a `.graph` instance) were pushed while it was
        /// the innermost: an outer top's resolver, used in a factory of this one (``end(_:)``).
        var holdsOuterRecords = false
    }

    /// What a top holds strongly, if it holds anything.
    final class TopObjects {
        /// The frame of an async resolve it continues (it has no entry).
        var tail: Frame?
        var inherited: GraphRecord?
        /// The async resolve its synchronous parts unwind to, to wait by suspending.
        var unwindsTo: Resolve?
        var heavy: Resolve?
    }

    /// A service being made (or completed) for the top `top`, for the frame `outer` (`-1`: the
    /// top's entry or tail).
    struct Level {
        /// Read only while the frame runs.
        let binding: Borrowed<Binding>
        /// `binding`'s identity, and the hash of the frame's arguments if they were hashed (the
        /// registration recurs): what a cycle check compares, read at any time.
        let id: ObjectIdentifier
        var hash: Int?
        /// Where its factory's resolves look up, if not its top's container (``lookup(of:)``).
        let lookup: Borrowed<Container>?
        let top: Int
        let outer: Int
        let depth: Int
        let serial: UInt64
        let isCompletion: Bool
        /// The innermost frame when it was pushed, again when it is popped.
        let restores: Int
        /// Its runtime arguments while it runs, if it has some.
        var arguments: Arguments?
        var isRunning = true
        /// Whether it has an entry in `frameObjects`.
        var hasObjects: Bool
    }

    /// What a frame holds strongly, if it holds anything.
    final class FrameObjects {
        /// The shared instance it makes, or completes.
        var creation: Creation?
        var heavy: Frame?
    }

    /// Runtime arguments where the call that a resolve entered the engine by holds them
    /// (``ArgumentValues/withPointer(for:_:_:)``), `nil` for none: the engine passes them down and
    /// a running frame keeps them, borrowed — only a running frame's are compared (cycles, graph
    /// instances). What outlives the frame copies them: a kept `.graph` entry, a ``Frame`` made
    /// from the record (``frame(_:)``), a cycle report. (An `ArgumentValues?` passed by value is
    /// made and destroyed through value witnesses, even when `nil`: about 60 instructions a
    /// resolve.)
    typealias Arguments = UnsafePointer<ArgumentValues?>

    /// A registration, and the hash of the arguments a running frame makes it with.
    struct Recurring: Hashable {
        let id: ObjectIdentifier
        let hash: Int
    }

    /// The records are plain values, so the arrays only grow: `topCount` and `frameCount` say
    /// which are live, and what is past them is stale, overwritten by the next push. Ending a top
    /// is setting a count.
    private struct Storage {
        var tops: [Top] = []
        var topCount = 0
        var frames: [Level] = []
        var frameCount = 0
        var topObjects: [Int: TopObjects] = [:]
        var frameObjects: [Int: FrameObjects] = [:]
        /// How many running frames make each registration with arguments of each hash, counting
        /// only frames whose arguments are hashed: those of a registration that recurs.
        var recurring: [Recurring: Int] = [:]
        /// The frame whose factory or completion runs now, `-1` if none here.
        var innermost = -1
        /// The serial of the last top whose own first read threw needsAsyncResolve, while none of
        /// its factories ran (``ownReadNeedsAsyncResolve(_:)``), or 0 (no serial is 0).
        var ownReadNeedsAsync: UInt64 = 0
        /// The `.graph` instances of the tops that are not sections, each top's from its
        /// `graphStart`.
        var graph: [GraphEntry] = []
        /// What ended tops held — their frames' and their own objects, and the `.graph` instances
        /// of a top that held outer records — moved here by ``end(_:)`` and let go once the stack
        /// is whole again (``releaseEnded()``): letting go of one may run a `deinit` that resolves
        /// on this thread. The arrays keep their capacity, so a resolve allocates nothing for them.
        var endedObjects: [AnyObject] = []
        var endedGraph: [GraphEntry] = []
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
    private static let stacks = Locked<UInt64>(0)

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

    var innermost: Int { storage.pointee.innermost }
    var isObserving: Bool { storage.pointee.observedTops > 0 }

    private func nextSerial() -> UInt64 {
        storage.pointee.lastSerial &+= 1
        return storage.pointee.lastSerial
    }

    // MARK: Tops

    /// Pushes a top-level resolve from `container`: unless `nested` is `false`, nested in the
    /// resolve of the innermost frame here, or else of the async factory this task runs. The
    /// caller holds `container` until it ends the top.
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
        let outer = entry >= 0 ? storage.pointee.frames[entry].top : -1
        let unwindsTo = outer >= 0 ? self.unwindsTo(of: outer) : nil
        let isObserved =
            findings != nil || container.isTraced || (outer >= 0 && storage.pointee.tops[outer].isObserved)
            || tail?.resolve.isObserved == true
        let t = storage.pointee.topCount
        if tail != nil || inherited != nil || unwindsTo != nil {
            let objects = TopObjects()
            (objects.tail, objects.inherited, objects.unwindsTo) = (tail, inherited, unwindsTo)
            storage.pointee.topObjects[t] = objects
        }
        push(
            Top(
                container: Borrowed(container), entry: entry, graphStart: storage.pointee.graph.count,
                frameStart: storage.pointee.frameCount, serial: nextSerial(), makesOne: makesOne && unwindsTo == nil,
                blocks: tail != nil, isSection: false, isObserved: isObserved,
                hasObjects: tail != nil || inherited != nil || unwindsTo != nil))
        if isObserved {
            storage.pointee.observedTops += 1
            Activity.observedResolve.begin()
            _ = heavy(t, findings: findings)
        }
        return t
    }

    /// Pushes a synchronous part of `resolve`, an async resolve, at `frame`, looking up from
    /// `lookup`, which the caller holds until it ends the section.
    func beginSection(of resolve: Resolve, at frame: Frame?, from lookup: Container) -> Int {
        let t = storage.pointee.topCount
        let objects = TopObjects()
        (objects.tail, objects.unwindsTo, objects.heavy) = (
            frame, resolve.isAsync ? resolve.suspensionOwner : nil, resolve
        )
        storage.pointee.topObjects[t] = objects
        push(
            Top(
                container: Borrowed(lookup), entry: -1, graphStart: storage.pointee.graph.count,
                frameStart: storage.pointee.frameCount, serial: nextSerial(), makesOne: false, blocks: false,
                isSection: true, isObserved: resolve.isObserved, hasObjects: true))
        if resolve.isObserved {
            storage.pointee.observedTops += 1
            Activity.observedResolve.begin()
        }
        return t
    }

    private func push(_ top: Top) {
        if storage.pointee.tops.count > storage.pointee.topCount {
            storage.pointee.tops[storage.pointee.topCount] = top
        } else {
            storage.pointee.tops.append(top)
        }
        storage.pointee.topCount += 1
    }

    /// Ends a successful top-level resolve: runs its completions (and those they queue), waits
    /// for what it handed over to be published, publishes what it made, and pops it.
    func finish(_ t: Int, describing service: @autoclosure () -> String) throws(ResolutionError) {
        if let resolve = heavy(of: t) {
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
        heavy(of: t)?.fail()
        end(t)
    }

    /// Pops top `t` (the innermost), then lets go of its frames' objects and `.graph` instances:
    /// a `deinit` may resolve on this thread, which finds the stack as it is once `t` has ended.
    /// Nothing is released while a record is being changed (the optimiser may release a value
    /// removed from a collection before the collection is whole again): it is moved out first.
    ///
    /// What an outer top's resolver made while `t` ran (a factory of `t` may use a resolver of the
    /// resolve it is nested in) is that top's and stays: the frames up to the last of them (the
    /// others past `t`'s start are stale: ``frame(_:ifLive:)``), and its `.graph` instances.
    func end(_ t: Int) {
        let top = storage.pointee.tops[t]
        // The borrowing rule for `arguments`: every frame from here on has ended and let go of
        // them (``pop(_:)``) before the call that lent them returns, which is after this.
        assert(
            (top.frameStart..<storage.pointee.frameCount).allSatisfy { storage.pointee.frames[$0].arguments == nil },
            "a frame that has ended still points at runtime arguments")
        if top.holdsOuterRecords {
            endKeepingOuterRecords(t)
        } else if !storage.pointee.frameObjects.isEmpty {
            for f in top.frameStart..<storage.pointee.frameCount where storage.pointee.frames[f].hasObjects {
                endObjects(of: f)
            }
        }
        if !top.holdsOuterRecords { storage.pointee.frameCount = top.frameStart }
        storage.pointee.topCount = t
        if top.isObserved {
            storage.pointee.observedTops -= 1
            Activity.observedResolve.end()
        }
        if top.hasObjects, let objects = storage.pointee.topObjects.removeValue(forKey: t) {
            storage.pointee.endedObjects.append(objects)
        }
        // The stack is whole: `t` has ended. Its `.graph` instances go last to first, each once
        // it is out of the array; a resolve a `deinit` starts is a top of its own, whose graph
        // starts past what is left of them.
        if !top.isSection, !top.holdsOuterRecords {
            while storage.pointee.graph.count > top.graphStart {
                let entry = storage.pointee.graph.removeLast()
                withExtendedLifetime(entry) {}
            }
        }
        if !storage.pointee.endedGraph.isEmpty || !storage.pointee.endedObjects.isEmpty { releaseEnded() }
    }

    /// Moves the objects of frame `f`, which has ended, to ``Storage/endedObjects``.
    private func endObjects(of f: Int) {
        if let objects = storage.pointee.frameObjects.removeValue(forKey: f) {
            storage.pointee.endedObjects.append(objects)
        }
    }

    /// Lets go of what ended tops held, one at a time, each once it is out of the records: a
    /// `deinit` it runs may resolve, which may end tops of its own and add to what is let go here.
    @inline(never)
    private func releaseEnded() {
        while let entry = storage.pointee.endedGraph.popLast() {
            withExtendedLifetime(entry) {}
        }
        while let objects = storage.pointee.endedObjects.popLast() {
            withExtendedLifetime(objects) {}
        }
    }

    /// ``end(_:)`` of a top that holds records of outer tops: they stay, and the top before it
    /// holds them now.
    @inline(never)
    private func endKeepingOuterRecords(_ t: Int) {
        let top = storage.pointee.tops[t]
        var frameCount = top.frameStart
        for f in top.frameStart..<storage.pointee.frameCount {
            if storage.pointee.frames[f].top < t {
                frameCount = f + 1
            } else if storage.pointee.frames[f].hasObjects {
                endObjects(of: f)
            }
        }
        storage.pointee.frameCount = frameCount
        if !top.isSection {
            var index = storage.pointee.graph.count
            while index > top.graphStart {
                index -= 1
                if storage.pointee.graph[index].top >= t {
                    let entry = storage.pointee.graph.remove(at: index)
                    storage.pointee.endedGraph.append(entry)
                }
            }
        }
        if t > 0 { storage.pointee.tops[t - 1].holdsOuterRecords = true }
    }

    /// Marks the innermost top as holding records of an outer one.
    private func holdOuterRecords() {
        storage.pointee.tops[storage.pointee.topCount - 1].holdsOuterRecords = true
    }

    // What other files read of the records.
    func isObserved(_ t: Int) -> Bool { storage.pointee.tops[t].isObserved }
    func isSection(_ t: Int) -> Bool { storage.pointee.tops[t].isSection }
    func entry(of t: Int) -> Int { storage.pointee.tops[t].entry }
    func serial(ofTop t: Int) -> UInt64 { storage.pointee.tops[t].serial }
    func graphStart(of t: Int) -> Int { storage.pointee.tops[t].graphStart }

    /// Whether the last needsAsyncResolve that top `t`'s own first read threw, while none of its
    /// factories ran, is this top's: how a main-actor hop tells the error for the service it
    /// resolves from one a factory met or caught elsewhere and threw
    /// (``AsyncResolution/onMainActor(_:from:_:)``). Serials are unique, so an older top's does
    /// not match.
    func ownReadNeedsAsyncResolve(_ t: Int) -> Bool {
        storage.pointee.ownReadNeedsAsync == storage.pointee.tops[t].serial
    }

    /// Notes that a read at top `t` throws needsAsyncResolve (``ownReadNeedsAsyncResolve(_:)``),
    /// if it is the top's own first read: no factory or completion of this top (or one above it)
    /// runs. A resolver kept past its factory resolves at the top too, but while the factory that
    /// uses it runs.
    func noteNeedsAsyncResolve(at t: Int) {
        if storage.pointee.innermost < storage.pointee.tops[t].frameStart {
            storage.pointee.ownReadNeedsAsync = storage.pointee.tops[t].serial
        }
    }

    /// Whether frame `f` makes the instance a plain resolve of top `t` returns: its first frame,
    /// made for its entry (a resolver of a frame that has ended resolves at the top too, later).
    func isTopInstance(at t: Int, _ f: Int) -> Bool {
        storage.pointee.tops[t].makesOne && f == storage.pointee.tops[t].frameStart
            && storage.pointee.frames[f].outer == storage.pointee.tops[t].entry
    }
    func outer(ofFrame f: Int) -> Int { storage.pointee.frames[f].outer }
    func serial(ofFrame f: Int) -> UInt64 { storage.pointee.frames[f].serial }
    func top(ofFrame f: Int) -> Int { storage.pointee.frames[f].top }
    func isRunning(_ f: Int) -> Bool { storage.pointee.frames[f].isRunning }

    /// Whether top `t` is still the one with `serial`.
    func isLive(top t: Int, _ serial: UInt64) -> Bool {
        t < storage.pointee.topCount && storage.pointee.tops[t].serial == serial
    }

    /// Frame `f`'s position and lookup, if it is still the one with `serial`: at the top of its
    /// top if it has ended (``position(of:)``).
    func frame(_ f: Int, ifLive serial: UInt64) -> (t: Int, f: Int, lookup: Borrowed<Container>)? {
        guard f < storage.pointee.frameCount else { return nil }
        let level = storage.pointee.frames[f]
        // Its top ended, if a frame past it stayed (``end(_:)``): gone, or a later top, begun after it.
        guard level.serial == serial, level.top < storage.pointee.topCount,
            storage.pointee.tops[level.top].serial < serial
        else { return nil }
        return (level.top, level.isRunning ? f : -1, level.lookup ?? storage.pointee.tops[level.top].container)
    }

    // MARK: What a record holds

    /// Where resolves at the top of `t` look up.
    func container(of t: Int) -> Container { storage.pointee.tops[t].container.object }

    /// ``container(of:)``, borrowed (the borrowing rule).
    func borrowedContainer(of t: Int) -> Borrowed<Container> { storage.pointee.tops[t].container }

    /// The ``Resolve`` of top `t`, if it has one.
    @inline(__always)
    func heavy(of t: Int) -> Resolve? {
        storage.pointee.tops[t].hasObjects ? storage.pointee.topObjects[t]?.heavy : nil
    }

    /// The async frame top `t` continues, if it does.
    @inline(__always)
    func tail(of t: Int) -> Frame? { storage.pointee.tops[t].hasObjects ? storage.pointee.topObjects[t]?.tail : nil }

    /// The async resolve top `t`'s synchronous parts unwind to, if they do.
    @inline(__always)
    func unwindsTo(of t: Int) -> Resolve? {
        storage.pointee.tops[t].hasObjects ? storage.pointee.topObjects[t]?.unwindsTo : nil
    }

    /// The graph top `t` inherited (a ``Lazy``'s first read), if it did.
    func inherited(of t: Int) -> GraphRecord? {
        storage.pointee.tops[t].hasObjects ? storage.pointee.topObjects[t]?.inherited : nil
    }

    /// The registration frame `f` makes, while it runs.
    func binding(of f: Int) -> Binding { storage.pointee.frames[f].binding.object }

    /// Where the resolves of frame `f`'s factory look up.
    func lookup(of f: Int) -> Container { borrowedLookup(of: f).object }

    /// ``lookup(of:)``, borrowed (the borrowing rule).
    func borrowedLookup(of f: Int) -> Borrowed<Container> {
        storage.pointee.frames[f].lookup ?? storage.pointee.tops[storage.pointee.frames[f].top].container
    }

    /// The shared instance frame `f` makes or completes, if it does.
    func creation(of f: Int) -> Creation? {
        storage.pointee.frames[f].hasObjects ? storage.pointee.frameObjects[f]?.creation : nil
    }

    /// The runtime arguments of frame `f`, while it runs.
    func arguments(of f: Int) -> ArgumentValues? {
        storage.pointee.frames[f].arguments?.pointee
    }

    private func objects(of t: Int) -> TopObjects {
        if let objects = storage.pointee.tops[t].hasObjects ? storage.pointee.topObjects[t] : nil { return objects }
        let objects = TopObjects()
        storage.pointee.topObjects[t] = objects
        storage.pointee.tops[t].hasObjects = true
        return objects
    }

    private func objects(ofFrame f: Int) -> FrameObjects {
        if let objects = storage.pointee.frames[f].hasObjects ? storage.pointee.frameObjects[f] : nil { return objects }
        let objects = FrameObjects()
        storage.pointee.frameObjects[f] = objects
        storage.pointee.frames[f].hasObjects = true
        return objects
    }

    // MARK: Frames

    /// Pushes the frame that makes `binding` at position (`t`, `f`), after the checks for a cycle
    /// and for depth; `creation` is given up if one fails. The caller holds `binding` while the
    /// frame runs.
    func enter(
        _ binding: Binding,
        from lookup: Container,
        at t: Int,
        _ f: Int,
        creating creation: Creation?,
        _ values: Arguments?
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
        let new = push(
            binding, lookup: lookup, arguments: binding.takesArguments ? values : nil,
            hash: recurs ? values?.pointee?.hashed.hash : nil, top: t,
            outer: outer(t, f),
            depth: depth + 1, isCompletion: false)
        if let creation {
            objects(ofFrame: new).creation = creation
            Waits.shared.creating(creation, at: frame(new))
        }
        return new
    }

    /// Pushes the frame of `pending`, a completion of top `t`, which runs on its entry's path and
    /// holds its binding.
    func enterCompletion(_ pending: Resolve.Pending, at t: Int) -> Int {
        let new = push(
            pending.binding, lookup: pending.lookup, arguments: nil, hash: nil, top: t, outer: outer(t, -1),
            depth: depth(at: t, -1) + 1, isCompletion: true)
        if let creation = pending.creation { objects(ofFrame: new).creation = creation }
        return new
    }

    private func push(
        _ binding: Binding,
        lookup: Container,
        arguments: Arguments?,
        hash: Int?,
        top t: Int,
        outer: Int,
        depth: Int,
        isCompletion: Bool
    ) -> Int {
        let f = storage.pointee.frameCount
        if t != storage.pointee.topCount - 1 { holdOuterRecords() }
        let level = Level(
            binding: Borrowed(binding), id: ObjectIdentifier(binding), hash: hash,
            lookup: lookup === container(of: t) ? nil : Borrowed(lookup), top: t, outer: outer, depth: depth,
            serial: nextSerial(), isCompletion: isCompletion, restores: innermost, arguments: arguments,
            hasObjects: false)
        if storage.pointee.frames.count > f {
            storage.pointee.frames[f] = level
        } else {
            storage.pointee.frames.append(level)
        }
        storage.pointee.frameCount = f + 1
        storage.pointee.innermost = f
        if let hash { storage.pointee.recurring[Recurring(id: level.id, hash: hash), default: 0] += 1 }
        return f
    }

    /// Ends the run of frame `f`, the innermost: it stays, with its top, for its resolvers.
    func pop(_ f: Int) {
        let level = Self.stopRunning(&storage.pointee.frames[f])  // One access: the buffer is checked once.
        storage.pointee.innermost = level.restores
        if let hash = level.hash {
            let key = Recurring(id: level.id, hash: hash)
            if storage.pointee.recurring[key] == 1 {
                storage.pointee.recurring[key] = nil
            } else {
                storage.pointee.recurring[key]! -= 1
            }
        }
    }

    private static func stopRunning(_ level: inout Level) -> Level {
        level.isRunning = false
        level.arguments = nil
        return level
    }

    /// The frame here that position (`t`, `f`) stands for: `f`, or at the top of `t` its entry
    /// (`-1`: none here; the top's tail goes on from there).
    func outer(_ t: Int, _ f: Int) -> Int { f >= 0 ? f : storage.pointee.tops[t].entry }

    /// How deep position (`t`, `f`) is, across nested resolves and async ones.
    @inline(__always)
    func depth(at t: Int, _ f: Int) -> Int {
        let f = outer(t, f)
        return f >= 0 ? storage.pointee.frames[f].depth : tail(of: t)?.depth ?? 0
    }

    /// Visits the frames here from position (`t`, `f`) outward, innermost first, while `visit`
    /// says so; the async frame the path goes on with beyond them, if it got there.
    private func walk(from t: Int, _ f: Int, _ visit: (Int) -> Bool) -> Frame? {
        var f = outer(t, f)
        var last = t
        while f >= 0 {
            guard visit(f) else { return nil }
            last = storage.pointee.frames[f].top
            f = storage.pointee.frames[f].outer
        }
        return tail(of: last)
    }

    /// The path from the outermost service to position (`t`, `f`), which runs.
    func steps(at t: Int, _ f: Int) -> [ResolutionError.Step] {
        var steps: [ResolutionError.Step] = []
        let tail = walk(from: t, f) { f in
            steps.append(binding(of: f).step)
            return true
        }
        return tail.steps + steps.reversed()
    }

    /// The cycle back to `binding` with `values` from position (`t`, `f`), if there is one
    /// (``Frame/Cycle``).
    func cycle(back binding: Binding, _ values: Arguments?, at t: Int, _ f: Int)
        -> (cycle: [ResolutionError.Step]?, recurs: Bool)
    {
        let start = outer(t, f)
        if start < 0, !storage.pointee.tops[t].hasObjects { return (nil, false) }  // No path: a top-level resolve.
        let id = ObjectIdentifier(binding)
        // Most paths do not hold the registration at all: identities first.
        var f = start
        var last = t
        while f >= 0, storage.pointee.frames[f].id != id {
            last = storage.pointee.frames[f].top
            f = storage.pointee.frames[f].outer
        }
        if f < 0, tail(of: last)?.chain.contains(where: { $0.binding === binding }) != true { return (nil, false) }
        // A recursion, so far with other arguments or the same. Where the path has no async part
        // and no running frame of the registration has arguments with these ones' hash, the walk
        // below would find no cycle: a deep recursion is not checked against each of its levels.
        if f >= 0, let hash = values?.pointee?.hashed.hash, tail(of: root(of: t)) == nil {
            count(f)
            if storage.pointee.recurring[Recurring(id: id, hash: hash)] == nil { return (nil, true) }
        }
        var cycle = Frame.Cycle(back: binding, values?.pointee)
        f = start
        last = t
        while f >= 0 {
            let level = storage.pointee.frames[f]
            if level.id == id, !cycle.visit(hash: level.hash, depth: level.depth, arguments: { arguments(of: f) }) {
                return cycle.result(on: steps(at: t, start))
            }
            last = level.top
            f = level.outer
        }
        var frame = tail(of: last)
        while let next = frame, cycle.visit(next) { frame = next.outer }
        return cycle.result(on: steps(at: t, start))
    }

    /// The top whose entry or tail the path of top `t` goes on with: `t`, or the top of its
    /// entry's.
    private func root(of t: Int) -> Int {
        var t = t
        while storage.pointee.tops[t].entry >= 0 { t = storage.pointee.frames[storage.pointee.tops[t].entry].top }
        return t
    }

    /// Counts frame `f` in `recurring`, hashing its arguments, if it is not counted: the first
    /// frame of a recursion runs before it is one.
    private func count(_ f: Int) {
        guard storage.pointee.frames[f].hash == nil, let hash = arguments(of: f)?.hashed.hash else { return }
        storage.pointee.frames[f].hash = hash
        storage.pointee.recurring[Recurring(id: storage.pointee.frames[f].id, hash: hash), default: 0] += 1
    }

    // MARK: Objects for the shared machinery

    /// The ``Resolve`` of top `t`, made now if it has none.
    func heavy(_ t: Int, findings: DryRunFindings? = nil) -> Resolve {
        if let heavy = heavy(of: t) { return heavy }
        let top = storage.pointee.tops[t]
        let made = Resolve(
            top.container.object, entry: top.entry >= 0 ? frame(top.entry) : tail(of: t), isAsync: false,
            blocks: top.blocks, makesOne: top.makesOne, findings: findings, inheriting: inherited(of: t))
        objects(of: t).heavy = made
        return made
    }

    /// The ``Frame`` of frame `f`, which runs, made now (with those of its outer frames) if it
    /// has none.
    func frame(_ f: Int) -> Frame {
        var unmade: [Int] = []
        var f = f
        var outer: Frame?
        while true {
            if let made = storage.pointee.frames[f].hasObjects ? storage.pointee.frameObjects[f]?.heavy : nil {
                outer = made
                break
            }
            unmade.append(f)
            guard storage.pointee.frames[f].outer >= 0 else {
                outer = tail(of: storage.pointee.frames[f].top)
                break
            }
            f = storage.pointee.frames[f].outer
        }
        for f in unmade.reversed() {
            let made = Frame(
                heavy(storage.pointee.frames[f].top), binding(of: f), arguments: arguments(of: f), outer: outer,
                creation: creation(of: f), isCompletion: storage.pointee.frames[f].isCompletion)
            objects(ofFrame: f).heavy = made
            outer = made
        }
        return outer!
    }

    /// Position (`t`, `f`) as a ``Frame``: frame `f`, or at the top of `t` its entry (or tail).
    func frame(at t: Int, _ f: Int) -> Frame? {
        let f = outer(t, f)
        return f >= 0 ? frame(f) : tail(of: t)
    }

    // MARK: The graph

    /// The `.graph` instance of `binding` made from `lookup` with these arguments for top `t`,
    /// if any: its own, or else one of the graph it inherited, which becomes its own too.
    func graphInstance(_ binding: Binding, from lookup: Container, _ values: Arguments?, at t: Int) -> Any? {
        if isSection(t) { return heavy(of: t)!.graphInstance(binding, from: lookup, values?.pointee) }
        let index: Int?
        if binding.takesArguments {
            let hashed = values?.pointee?.hashed
            index = graphIndex(of: binding, from: lookup, at: t) {
                storage.pointee.graph[$0].matches(binding, lookup, hashed)
            }
        } else {
            index = graphIndex(of: binding, from: lookup, at: t)
        }
        if let index { return storage.pointee.graph[index].instance }
        guard !binding.takesArguments, let found = inherited(of: t)?.instance(of: binding, from: lookup) else {
            return nil
        }
        if t != storage.pointee.topCount - 1 { holdOuterRecords() }
        storage.pointee.graph.append(
            GraphEntry(binding: binding, lookup: lookup, arguments: nil, instance: found, top: t))
        return found
    }

    /// Where top `t`'s own `.graph` instance of `binding` from `lookup` is in `graph`: the last
    /// entry of the same identities that `matches` too.
    private func graphIndex(
        of binding: Binding, from lookup: Container, at t: Int, where matches: (Int) -> Bool = { _ in true }
    ) -> Int? {
        var index = storage.pointee.graph.count
        while index > storage.pointee.tops[t].graphStart {
            index -= 1
            // The identities first, field by field: a call on the whole entry would copy it.
            if storage.pointee.graph[index].binding === binding, storage.pointee.graph[index].lookup === lookup,
                storage.pointee.graph[index].top == t, matches(index)
            {
                return index
            }
        }
        return nil
    }

    /// Keeps `instance` as top `t`'s `.graph` instance of `binding` from `lookup` — unless
    /// `isLast` and nothing of the resolve runs after it to ask for it. (A section keeps it in
    /// its async resolve: ``Resolve/keepGraphInstance(_:of:from:_:isLast:)``.)
    func keepGraphInstance(
        _ instance: Any,
        of binding: Binding,
        from lookup: Container,
        _ values: Arguments?,
        at t: Int,
        isLast: Bool
    ) {
        if isLast, heavy(of: t)?.mayAskForGraph != true { return }
        if t != storage.pointee.topCount - 1 { holdOuterRecords() }
        storage.pointee.graph.append(
            GraphEntry(
                binding: binding, lookup: lookup, arguments: binding.takesArguments ? values?.pointee?.hashed : nil,
                instance: instance, top: t))
    }

    /// The `.graph` instances of top `t`.
    func graphEntries(of t: Int) -> [GraphEntry] {
        storage.pointee.graph[storage.pointee.tops[t].graphStart...].filter { $0.top == t }
    }
}

/// What runs in the process that a plain resolve would otherwise look for on every call: async
/// resolves (whose tasks may carry a ``Resolve/taskFrame``, a task-local read that costs more
/// than the rest of a transient resolve's start) and observed ones (traced, or dry runs, which
/// no shortcut may skip). While none runs, a synchronous resolve reads no task-local, and a cached
/// singleton no thread-local either.
///
/// One word counts both, relaxed: a thread or task sees its own counts (it changed them), and
/// what it finds while another's run is checked as it would be anyway.
enum Activity {
    case asyncResolve, observedResolve

    private static let counts = Atomic<Int>(0)

    private var unit: Int { self == .asyncResolve ? 1 : 1 << 32 }

    /// Whether any async resolve, and any observed resolve, may run now.
    static var now: (asyncResolves: Bool, observedResolves: Bool) {
        let counts = counts.load(ordering: .relaxed)
        return (counts & 0xFFFF_FFFF != 0, counts >> 32 != 0)
    }

    func begin() { count(by: unit) }
    func end() { count(by: 0 &- unit) }

    private func count(by change: Int) { Self.counts.wrappingAdd(change, ordering: .relaxed) }
}
