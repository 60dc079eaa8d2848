/// What `register` writes: the registrations, the snapshot published for lookups, and the
/// superseded snapshots that resolves in flight may still read.
struct Registry {
    var table = RegistrationTable()
    /// The snapshot whose address is published, if any.
    var current: RegistrySnapshot?
    /// Superseded snapshots, each kept until the resolves that may read it have ended.
    var retired: [RetiredSnapshot] = []
    /// Whether the container is listed with ``PendingSnapshots``: while `retired` is not empty.
    var isListed = false

    /// Takes out the retired snapshots that no resolve can read any more, for the caller to
    /// release after the lock (releasing one may release registrations and their factories).
    mutating func reclaim() -> [RetiredSnapshot] {
        guard !retired.isEmpty else { return [] }
        let (freed, kept) = retired.reduce(into: ([RetiredSnapshot](), [RetiredSnapshot]())) { result, entry in
            if entry.isUnread { result.0.append(entry) } else { result.1.append(entry) }
        }
        retired = kept
        return freed
    }
}

/// Superseded snapshots, and the resolves that were running when they were superseded.
struct RetiredSnapshot {
    /// Snapshots retired while the same resolves ran (so a long resolve and many replacements
    /// make one entry, and a `register` checks one entry rather than one per replacement).
    private(set) var snapshots: [RegistrySnapshot]
    /// Each context that was active then, with its activation: once every one has moved on, no
    /// resolve can hold a reference into the snapshots.
    let readers: [ResolutionContext.Activation]

    init(snapshot: RegistrySnapshot, readers: [ResolutionContext.Activation]) {
        snapshots = [snapshot]
        self.readers = readers
    }

    var isUnread: Bool { readers.allSatisfy(\.hasEnded) }

    /// Adds `snapshot`, retired while `readers` ran, if those are among this entry's readers: a
    /// reader of this entry that is not among them has already ended, so the snapshot waits for
    /// exactly what it would wait for alone.
    ///
    /// - Returns: Whether the snapshot was added.
    mutating func absorb(_ snapshot: RegistrySnapshot, readers newReaders: [ResolutionContext.Activation]) -> Bool {
        let isSubset = newReaders.allSatisfy { reader in
            readers.contains { $0.context === reader.context && $0.count == reader.count }
        }
        if isSubset { snapshots.append(snapshot) }
        return isSubset
    }
}
