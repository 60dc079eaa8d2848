public import Synchronization

/// The containers holding superseded snapshots that a resolve may still read, so that the
/// resolves that end release them, rather than only a later `register` of the same container.
///
/// A `register` lists its container when it leaves a snapshot retired (see
/// `Container+Registry.swift`); every top-level resolve, as it ends, looks at ``count`` and, if
/// any container is listed, releases the snapshots no resolve can read any more. So a replaced
/// registration — and its factory's captured values — goes when the last resolve that was running
/// at the replacement ends.
///
/// The look at ``count`` is an ordinary load after the resolve's end was stored: a resolve ending
/// at the very moment of a `register` may miss the listing while that `register` still sees it
/// running. The snapshot then goes at the next end of a top-level resolve, or `register`, on any
/// thread.
@usableFromInline
enum PendingSnapshots {
    /// How many containers are listed.
    @usableFromInline
    static let count = Atomic<Int>(0)

    /// The listed containers, weakly: a container that goes releases its snapshots itself.
    private static let containers = Locked.make([WeakContainer]())

    private struct WeakContainer {
        weak var container: Container?
    }

    /// Lists `container`. Call with its registry locked (the registry's lock comes first).
    static func list(_ container: Container) {
        containers.withLock { $0.append(WeakContainer(container: container)) }
        count.add(1, ordering: .sequentiallyConsistent)
    }

    /// Unlists `container`. Call with its registry locked.
    static func unlist(_ container: Container) {
        containers.withLock { listed in
            listed.removeAll { $0.container === container || $0.container == nil }
            count.store(listed.count, ordering: .relaxed)
        }
    }

    /// Releases the snapshots of listed containers that no resolve can read any more, if any
    /// container is listed. Call with no lock held and no resolve running on this thread:
    /// releasing a snapshot runs the `deinit` of what its registrations captured.
    @inlinable @inline(__always)
    static func releaseUnread() {
        if count.load(ordering: .relaxed) != 0 { releaseListed() }
    }

    @usableFromInline
    static func releaseListed() {
        let listed = containers.withLock { listed in
            listed.removeAll { $0.container == nil }
            count.store(listed.count, ordering: .relaxed)
            return listed.compactMap(\.container)
        }
        for container in listed { container.releaseUnreadSnapshots() }
    }
}
