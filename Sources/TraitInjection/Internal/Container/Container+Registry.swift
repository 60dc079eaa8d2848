public import Synchronization

// How lookups find registrations without a lock, and when what they read may be freed.
//
// A lookup reads the published `RegistrySnapshot` by its address, neither locked nor retained, and
// the registration it finds is borrowed for the whole resolve. Every lookup runs inside an active
// `ResolutionContext`, whose activation counter is odd while it is active and is stored
// sequentially consistently before the resolve reads any snapshot.
//
// A `register` clears the published address (sequentially consistently), then records every
// context active at that moment with its activation: a resolve that read the old snapshot began
// before the address was cleared, so its context is among them (or has already ended). The old
// snapshot — and with it any registration only it still holds, with its factory's captured values
// — is released by a later `register` once every recorded context has moved to another activation.
// Nothing waits: a long resolve only delays the release. While retired snapshots remain, the
// container is listed with `PendingSnapshots`, and the contexts recorded as readers are marked, so
// that the end of the last of them releases what has become unread (see `PendingSnapshots`).

extension Container {
    /// Publishes a snapshot of the registrations (after a `register`) and returns it.
    @usableFromInline
    func publishSnapshot() -> RegistrySnapshot {
        registry.withLock { registry in
            if let current = registry.current, published.load(ordering: .acquiring) != 0 {
                return current
            }
            let snapshot = RegistrySnapshot(table: registry.table)
            registry.current = snapshot
            published.store(UInt(bitPattern: Unmanaged.passUnretained(snapshot).toOpaque()), ordering: .releasing)
            return snapshot
        }
    }

    /// The registration for `key` in this container, looked up in the published snapshot. Call
    /// only from an active context.
    @inlinable @inline(__always)
    func localRegistration(for key: ServiceKey) -> Unmanaged<AnyObject>? {
        // Sequentially consistent, after the context's activation: see the comment above.
        guard let snapshot = UnsafeRawPointer(bitPattern: published.load(ordering: .sequentiallyConsistent)) else {
            return publishSnapshot().registration(for: key)
        }
        return Unmanaged<RegistrySnapshot>.fromOpaque(snapshot)._withUnsafeGuaranteedRef {
            $0.registration(for: key)
        }
    }

    /// Unpublishes the current snapshot, if any, and keeps it until the resolves running now have
    /// ended. Call with the registry locked.
    func retireSnapshot(_ registry: inout Registry) {
        let address = published.exchange(0, ordering: .sequentiallyConsistent)
        guard address != 0, let current = registry.current else { return }
        registry.current = nil
        // Listed before the readers are recorded and marked: a reader that sees its mark as it
        // ends finds the container listed.
        setListed(true, &registry)
        let readers = ResolutionContext.activations()
        if registry.retired.isEmpty || !registry.retired[registry.retired.count - 1].absorb(current, readers: readers) {
            registry.retired.append(RetiredSnapshot(snapshot: current, readers: readers))
        }
    }

    /// Takes out the retired snapshots that no resolve can read any more, for the caller to
    /// release after the lock, and keeps the container listed with ``PendingSnapshots`` exactly
    /// while others remain. Call with the registry locked.
    func reclaimSnapshots(_ registry: inout Registry) -> [RetiredSnapshot] {
        let freed = registry.reclaim()
        setListed(!registry.retired.isEmpty, &registry)
        return freed
    }

    /// Lists the container with ``PendingSnapshots``, or unlists it, unless it already is. Call
    /// with the registry locked.
    private func setListed(_ listed: Bool, _ registry: inout Registry) {
        guard registry.isListed != listed else { return }
        registry.isListed = listed
        if listed { PendingSnapshots.list(self) } else { PendingSnapshots.unlist(self) }
    }

    /// Releases the retired snapshots that no resolve can read any more, after
    /// ``PendingSnapshots`` has taken the container out of its list: lists it again if others
    /// remain.
    func releaseUnreadSnapshots() {
        let freed = registry.withLock { registry in
            registry.isListed = false
            return reclaimSnapshots(&registry)
        }
        // Released here, after the lock: a registration only these snapshots held goes with them.
        // (`_ = freed` would not do: an optimised build may release a value as soon as it is last
        // used, which is inside the locked closure that returned it.)
        withExtendedLifetime(freed) {}
    }

    /// The number of superseded snapshots still kept, for tests.
    var retiredSnapshotCount: Int {
        registry.withLock { $0.retired.reduce(0) { $0 + $1.snapshots.count } }
    }
}
