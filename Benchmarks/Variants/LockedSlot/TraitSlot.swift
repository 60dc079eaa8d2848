/// The plain baseline of `Traits/TraitSlot.swift`: the entries in a `Locked`, which keeps its lock
/// and state in a block of its own, so a slot costs two allocations instead of one.
@usableFromInline
final class TraitSlot {
    @usableFromInline
    let entries: Locked<TraitEntries>

    init(_ entries: TraitEntries) {
        self.entries = Locked.make(entries)
    }

    @usableFromInline
    static func make(_ entries: TraitEntries) -> TraitSlot {
        TraitSlot(entries)
    }

    @inlinable
    func withLock<Result>(_ body: (inout TraitEntries) throws -> Result) rethrows -> Result {
        try entries.withLock(body)
    }
}
