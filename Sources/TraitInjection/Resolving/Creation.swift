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
    /// The error of the completion that threw, if it was its own failure
    /// (``ResolutionError/isOwnFailure``: not a cancellation, an unwinding to wait, or a refused
    /// wait), for the resolve that handed the instance over and waits for it
    /// (``Waits/unsettled(_:of:)``).
    var completionError: ResolutionError?
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
    /// Resolve as if nothing were registered: the key was unregistered since it was looked up
    /// (``Binding/standIn()``).
    case unfiled
    /// Resolve this binding instead: the key was registered again since it was looked up, and
    /// this one is in the slot now (so that the resolves waiting for the old one's instance
    /// make one of the new one's, not one each of the old one's).
    case replaced(Binding)
    /// Another resolve makes it: wait (``Waits``).
    case busy(Creation)
}

/// What a resolve gets of a shared instance once it has claimed it or waited for it: the
/// instance, or the creation it makes (`nil`: one it does not keep).
enum Claimed {
    case instance(Any)
    case create(Creation?)
    /// The key was unregistered meanwhile: ``Found/unregistered``.
    case unregistered
    /// The key was registered again meanwhile: resolve this binding instead.
    case replaced(Binding)
}

extension KeptSlot {
    /// What `resolve` does to get the instance `binding` keeps here: claims it if there is none.
    func claim(_ binding: Binding, by resolve: () -> Resolve) -> Claim {
        // A strong reference loaded from a weak one may be the last: released after the lock.
        var loaded: AnyObject?
        defer { withExtendedLifetime(loaded) {} }
        return withKept { kept, current in
            guard current === binding else {
                guard let current else { return .createUnkept }
                return current.isStandIn ? .unfiled : .replaced(current)
            }
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

/// The changes of a creation's state, under ``Waits``' monitor: each wakes every waiter to look
/// again. What a change lets go is returned, for the caller to release after the monitor.
extension Waits {
    /// Records `instance` as made for `creation`, with `completions` to run before it is complete.
    ///
    /// - Returns: `false` if its resolve has ended or failed meanwhile (a task its factory did not
    ///   await made it late): then it is abandoned, and its waiters claim again.
    func made(_ creation: Creation, instance: Any, keeping kept: KeptState, completions: Int) -> Bool {
        let (isMade, released) = changing { () -> (Bool, [Any]) in
            guard creation.owner.isRunning, case .pending = creation.outcome else {
                return (false, abandon(creation, because: nil))
            }
            creation.instance = instance
            creation.kept = kept
            creation.completionsLeft = completions
            creation.creator = nil
            return (true, [])
        }
        withExtendedLifetime(released) {}
        return isMade
    }

    /// Records that `frame` makes `creation`.
    func creating(_ creation: Creation, at frame: Frame) {
        locked { creation.creator = frame }
    }

    /// Whether `slot` holds an instance being made by the tree of `resolve` that is already made:
    /// a resolve of the tree gets it (for the trace).
    func isMade(_ slot: any KeptSlot, forTreeOf resolve: Resolve) -> Bool {
        guard case .creating(let creation) = slot.withKept({ kept, _ in kept }) else { return false }
        return locked { creation.instance != nil && creation.owner.isInTree(of: resolve) }
    }

    /// Whether `resolve` runs its completion `pending` now: it does unless the shared instance
    /// it completes was handed to another resolve.
    func beginCompletion(_ pending: Resolve.Pending, by resolve: Resolve) -> Bool {
        guard let creation = pending.creation else { return true }
        return locked {
            // Taken from the queue by `next`: a hand-over meanwhile moved it, with the instance, and
            // it runs there — or here again, from the queue, if the instance came back meanwhile.
            let wasMoved = resolve.state.withLock { state -> Bool in
                defer { state.dequeued = nil }
                return state.dequeued == nil
            }
            guard !wasMoved, creation.owner === resolve, case .pending = creation.outcome else { return false }
            creation.running = pending
            return true
        }
    }

    /// On the main actor, where the task has gone to run it: whether `resolve` still runs its
    /// completion `pending` (``beginCompletion(_:by:)``). It does not if it ended it already (a
    /// run again after another task's wait) or another resolve has the instance now.
    func isStillRunning(_ pending: Resolve.Pending, by resolve: Resolve) -> Bool {
        guard let creation = pending.creation else { return true }
        return locked {
            guard creation.owner === resolve, creation.running != nil, case .pending = creation.outcome else {
                return false
            }
            return true
        }
    }

    /// Ends the run of `pending`, a completion by `resolve`, which threw `failure` if it is given.
    ///
    /// - Returns: `false` if the shared instance it completes was handed over meanwhile: that run
    ///   does not count (it runs again in the resolve that has it now).
    @discardableResult
    func endCompletion(_ pending: Resolve.Pending, by resolve: Resolve, failure: ResolutionError? = nil) -> Bool {
        guard let creation = pending.creation else { return true }
        return changing { () -> Bool in
            guard creation.owner === resolve, creation.running != nil else { return false }
            creation.running = nil
            if let failure {
                creation.completionFailed = true
                // Not an unwinding's error, which holds the frames that hold this creation.
                if failure.isOwnFailure { creation.completionError = failure }
            } else {
                creation.completionsLeft -= 1
            }
            return true
        }
    }

    /// Abandons the creations of `claims` that `resolve` still owns; returns what they held, for
    /// the caller to let go. Their waiters get `error`, or claim again if it is `nil` — but a
    /// creation handed to `resolve` goes back to the resolve that handed it over, with the
    /// completions of it still in `queue`, if that one waits for it and none of them failed: its
    /// factory succeeded, and that resolve can complete and publish it.
    func abandon(
        _ claims: [Creation],
        by resolve: Resolve,
        because error: ResolutionError?,
        queue: [Resolve.Pending] = []
    ) -> [Any] {
        changing {
            claims.filter { $0.owner === resolve }.flatMap { creation in
                error == nil && giveBack(creation, queue) ? [] : abandon(creation, because: error)
            }
        }
    }

    /// Gives `creation` back to the resolve that handed it over (see ``abandon(_:by:because:queue:)``).
    private func giveBack(_ creation: Creation, _ queue: [Resolve.Pending]) -> Bool {
        guard let giver = creation.giver, !creation.completionFailed, case .pending = creation.outcome else {
            return false
        }
        let isTaken = giver.state.withLock { state -> Bool in
            guard state.phase == .running, let index = state.yielded.firstIndex(where: { $0 === creation }) else {
                return false
            }
            state.yielded.remove(at: index)
            state.queue += queue.filter { $0.creation === creation }
            return true
        }
        guard isTaken else { return false }
        (creation.owner, creation.giver, creation.running) = (giver, nil, nil)
        return true
    }

    /// Settles what a successful `resolve` still owns of `claims`: the outermost resolve (or a
    /// nested one whose outer resolve has succeeded already) publishes it; a nested one hands it
    /// to its outer resolve; if that one has failed, it is abandoned and this returns `false`.
    func settle(_ claims: [Creation], endedBy resolve: Resolve) -> Bool {
        let (handled, released) = changing { () -> (Bool, [Any]) in
            let mine = claims.filter { creation in
                guard creation.owner === resolve, case .pending = creation.outcome else { return false }
                return true
            }
            guard let outer = resolve.outer else { return (true, mine.flatMap(publish)) }
            let phase = outer.state.withLock { state -> Resolve.Phase in
                if state.phase == .running { state.claims += mine }
                return state.phase
            }
            switch phase {
            case .running:
                for creation in mine { creation.owner = outer }
                return (true, [])
            case .succeeded:
                return (true, mine.flatMap(publish))
            case .failed:
                // A `container.resolveAsync` started by a task a failed resolve's factory did not
                // await: it stands alone now.
                return (true, mine.flatMap(publish))
            }
        }
        withExtendedLifetime(released) {}
        return handled
    }

    /// The first of the creations `resolve` handed over (`yielded`) that is neither published
    /// nor back with it, to wait for at its end; `nil` once there is none.
    ///
    /// - Throws: the error of one that was abandoned: what this resolve made is not kept.
    func unsettled(_ yielded: [Creation], of resolve: Resolve) throws(ResolutionError) -> Creation? {
        try locked { () throws(ResolutionError) -> Creation? in
            for creation in yielded where creation.owner !== resolve {
                switch creation.outcome {
                case .published: continue
                case .pending: return creation
                case .abandoned(let error):
                    throw error ?? creation.completionError
                        ?? ResolutionError(
                            kind: .factoryFailed, service: creation.service,
                            underlyingError: "the resolve it was handed to, to end a deadlock, failed")
                }
            }
            return nil
        }
    }

    private func publish(_ creation: Creation) -> [Any] {
        guard creation.isComplete else {
            // Still being made by a task its factory did not await: abandoned when made.
            return creation.instance == nil ? [] : abandon(creation, because: nil)
        }
        let replaced = creation.slot?.withKept { kept, _ -> KeptState? in
            guard case .creating(let current) = kept, current === creation else { return nil }
            defer { kept = creation.kept }
            return kept
        }
        creation.outcome = .published
        defer { (creation.instance, creation.kept, creation.slot) = (nil, .empty, nil) }
        return [replaced as Any, creation.instance as Any, creation.kept, creation.slot as Any]
    }

    private func abandon(_ creation: Creation, because error: ResolutionError?) -> [Any] {
        guard case .pending = creation.outcome else { return [] }
        creation.slot?.withKept { kept, _ in
            if case .creating(let current) = kept, current === creation { kept = .empty }
        }
        creation.outcome = .abandoned(error)
        defer {
            (creation.instance, creation.kept, creation.running, creation.creator, creation.slot) = (
                nil, .empty, nil, nil, nil
            )
        }
        return [
            creation.instance as Any, creation.kept, creation.running as Any, creation.creator as Any,
            creation.slot as Any,
        ]
    }
}
