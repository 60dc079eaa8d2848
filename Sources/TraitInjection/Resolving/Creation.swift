/// A shared instance (``Scope/container``, ``Scope/weak`` or an app's ``SharedScope``) being made:
/// claimed by one resolve, which publishes it when that resolve has succeeded as a whole.
///
/// Exactly one resolve owns a creation at a time. The owner runs the instance's completions and
/// publishes it; other resolves wait for it (``Waits``). Ownership moves only to end a deadlock
/// (``Waits/yield(_:detectedBy:)``), to the outer resolve when a nested one succeeds, and never
/// before the instance is made.
final class Creation: @unchecked Sendable {
    // `@unchecked Sendable`: the mutable fields are read and written only with the monitor of
    // ``Waits/shared`` locked.
    enum Outcome {
        case pending
        case published
        /// Given up: its waiters get `error`, or (`nil`) claim again.
        case abandoned(ResolutionError?)
    }

    /// Where the instance is kept once published; let go once it is settled (published or
    /// abandoned), since the instance may hold a resolver whose frame holds this creation.
    var slot: (any KeptSlot)?
    let binding: Binding

    // Guarded by `Waits.shared`'s monitor (and `slot`):
    var owner: Resolve
    /// The frame whose factory makes it, until it is made.
    var creator: Frame?
    var instance: Any?
    /// What the slot keeps when it is published: a `Kept<Service>` box, a weak reference, or
    /// nothing (`.weak` with a value).
    var kept = KeptState.empty
    /// Its completions not yet run: it is complete (handed to other resolves of its tree) at 0.
    var completionsLeft = 0
    /// The completion its owner runs now.
    var running: Resolve.Pending?
    /// The resolve that handed it to its owner to end a deadlock, and waits for it at its end: it
    /// takes it back if the owner fails first (``Waits``).
    var giver: Resolve?
    /// Whether a completion of it threw: then it cannot be completed, by anyone.
    var completionFailed = false
    var outcome = Outcome.pending

    init(slot: any KeptSlot, binding: Binding, owner: Resolve) {
        self.slot = slot
        self.binding = binding
        self.owner = owner
    }

    var isComplete: Bool { instance != nil && completionsLeft == 0 && running == nil }

    /// `Database (App.swift:12)`, for errors about waits.
    var service: String { binding.step.description }
}

/// What a resolve that wants a shared instance does.
enum Claim {
    /// Use it: kept, or already made for this resolve.
    case instance(Any)
    /// Make it, then publish or abandon the creation.
    case create(Creation)
    /// Make one and keep nothing: the registration was replaced since it was looked up.
    case createUnkept
    /// Another resolve makes it: wait (``Waits``).
    case busy(Creation)
}

extension KeptSlot {
    /// What `resolve` does to get the instance `binding` keeps here: claims it if there is none.
    func claim(_ binding: Binding, by resolve: () -> Resolve) -> Claim {
        // A strong reference loaded from a weak one may be the last: released after the lock.
        var loaded: AnyObject?
        defer { withExtendedLifetime(loaded) {} }
        return withKept { kept, current in
            guard current === binding else { return .createUnkept }
            switch kept {
            case .strong(let box):
                return .instance((box as! any KeptBox).value)
            case .weak(let reference):
                loaded = reference.object
                if let loaded { return .instance(loaded) }
            case .creating(let creation):
                return .busy(creation)
            case .empty:
                break
            }
            let creation = Creation(slot: self, binding: binding, owner: resolve())
            kept = .creating(creation)
            return .create(creation)
        }
    }
}
