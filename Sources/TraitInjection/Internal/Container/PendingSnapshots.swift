/// The containers holding superseded snapshots that a resolve may still read, so that the ends of
/// those resolves release them, rather than only a later `register` of the same container.
///
/// A `register` that leaves a snapshot retired (see `Container+Registry.swift`) lists its
/// container here, and marks every context it recorded as a reader (`mustReclaim`). A root
/// context that ends with the mark set — its own, or one its chain's nested contexts shared, as a
/// root is active whenever they are — releases the snapshots of every listed container that no
/// resolve can read any more. So a replaced registration, with its factory's captured values,
/// goes when the last resolve that was running at the replacement ends; a resolve that was not
/// running then never takes this path.
///
/// A resolve that ends at the very moment of the `register` may miss its mark while that
/// `register` still sees it running (its end is stored, then the mark loaded, with no fence
/// between). The snapshot then goes at the next `register` of that container, or the next end of
/// a resolve that some `register`, in any container, found running.
///
/// No container is dropped under the list's lock: its `deinit` releases registrations, whose
/// captured values' `deinit` may resolve or register.
enum PendingSnapshots {
    /// The listed containers, and who is releasing their snapshots.
    private static let state = Locked.make(State())

    private struct State {
        var entries: [Entry] = []
        /// Whether a thread is releasing snapshots now.
        var isReleasing = false
        /// Whether another thread (or a `deinit` during the release) asked for a release since.
        var isRequested = false

        /// Takes the listed containers out, with strong references for the caller to drop
        /// after the lock; each lists itself again if retired snapshots remain.
        mutating func takeContainers() -> [Container?] {
            let strong = entries.map(\.container)
            entries.removeAll()
            return strong
        }
    }

    private struct Entry {
        let identity: ObjectIdentifier
        /// Weak: a container that goes releases its snapshots itself.
        weak var container: Container?
    }

    /// Lists `container`. Call with its registry locked (the registry's lock comes first).
    static func list(_ container: Container) {
        state.withLock { $0.entries.append(Entry(identity: ObjectIdentifier(container), container: container)) }
    }

    /// Unlists `container`. Call with its registry locked.
    static func unlist(_ container: Container) {
        let identity = ObjectIdentifier(container)
        // By identity: loading a weak reference here could make this the last strong one.
        state.withLock { $0.entries.removeAll { $0.identity == identity } }
    }

    /// Whether any container is listed, for tests.
    static var isEmpty: Bool {
        state.withLock(\.entries.isEmpty)
    }

    /// Releases the snapshots of listed containers that no resolve can read any more. Call with no
    /// lock held: releasing a snapshot runs the `deinit` of what its registrations captured.
    ///
    /// One thread releases at a time. A call meanwhile — from a resolve that ended after the
    /// releasing thread looked at it, or from a `deinit` that the release started — makes that
    /// thread go round again rather than returning with nothing done.
    static func releaseUnread() {
        var batch = state.withLock { state -> [Container?]? in
            guard !state.isReleasing else {
                state.isRequested = true
                return nil
            }
            state.isReleasing = true
            return state.takeContainers()
        }
        while let containers = batch {
            for case let container? in containers { container.releaseUnreadSnapshots() }
            batch = state.withLock { state -> [Container?]? in
                guard state.isRequested else {
                    state.isReleasing = false
                    return nil
                }
                state.isRequested = false
                return state.takeContainers()
            }
        }
    }
}
