/// The plain baseline of `Traits/TraitSlot.swift`: the entries in a `Locked`, which keeps its lock
/// and state in a block of its own, so a slot costs two allocations instead of one.
@usableFromInline
final class TraitSlot {
    @usableFromInline
    struct State {
        @usableFromInline var entries: TraitEntries
        var number: UInt64 = 0
    }

    @usableFromInline
    let state: Locked<State>

    init(_ entries: TraitEntries) {
        state = Locked.make(State(entries: entries))
    }

    @usableFromInline
    static func make(_ entries: TraitEntries) -> TraitSlot {
        TraitSlot(entries)
    }

    @inlinable
    func withLock<Result>(_ body: (inout TraitEntries) throws -> Result) rethrows -> Result {
        try state.withLock { try body(&$0.entries) }
    }

    func number(orAssign next: () -> UInt64) -> UInt64 {
        state.withLock { state in
            if state.number == 0 { state.number = next() }
            return state.number
        }
    }
}
