/// The `.container` and `.weak` instances a thread's chain creates: claimed while they are made,
/// published when the chain's outermost resolve succeeds, abandoned when a resolve fails.
extension ResolutionContext {
    /// The instance of a `.container` or `.weak` registration: published, claimed for this
    /// resolve to create, or already created by this thread's chain.
    @usableFromInline
    func claim<Service>(_ registration: Registration<Service>) throws(ResolutionError) -> InstanceCell<Service>.Claim {
        let claim: InstanceCell<Service>.Claim
        do {
            claim = try registration.cell.claim(by: owner)
        } catch {
            throw deadlock(error)
        }
        guard case .ownClaim = claim else { return claim }
        for claimed in root.claims {
            guard let mine = claimed as? Claimed<Service>, mine.registration === registration else { continue }
            // Created earlier in this resolve: the same instance, as a cycle through
            // `initCompleted` needs. Asked for by another, nested top-level resolve before its
            // `initCompleted` closures or `@Inject` properties have run: handing it out would
            // show a half-built instance, so that is a cycle too.
            guard mine.creator === self || mine.isComplete else { break }
            return .instance(mine.instance)
        }
        // Its factory, or its completion, is still running further up this thread: a cycle.
        throw cycleThroughChain(back: registration)
    }

    /// Records a kept instance this resolve created, to publish when the chain succeeds.
    @usableFromInline
    func addClaim(_ claimed: any ClaimedInstance) {
        root.claims.append(claimed)
    }

    /// Whether completions or claims wait for the end of the resolve.
    @inlinable
    var hasDeferredWork: Bool { !pending.isEmpty || (isRoot && !claims.isEmpty) }

    /// Ends a successful top-level resolve: runs the queued completions, including those queued by
    /// the resolves they make, then (for a root) publishes the kept instances the chain created.
    @usableFromInline
    func complete() throws(ResolutionError) {
        try drainCompletions()
        // What this resolve created is complete now, for nested resolves that ask for it later.
        for claimed in root.claims where claimed.creator === self { claimed.isComplete = true }
        if isRoot { publishClaims() }
    }

    /// Publishes every claimed instance, including those claimed meanwhile by a resolve that a
    /// released instance's `deinit` started.
    func publishClaims() {
        while !claims.isEmpty {
            let published = claims
            claims.removeAll()
            for claimed in published { claimed.publish() }
            // `published` goes here: an instance it was the last to hold may resolve in its
            // `deinit`, and claim more.
        }
    }

    /// Undoes a failed top-level resolve: the kept instances it claimed are abandoned — a root's,
    /// or those a nested resolve (or one nested in it) added to its root's — and nothing queued
    /// runs.
    @usableFromInline
    func fail() {
        let start = isRoot ? 0 : min(claimsAtStart, root.claims.count)
        var abandoned: [any ClaimedInstance] = []
        var kept: [any ClaimedInstance] = []
        for claimed in root.claims[start...] {
            // A claim made meanwhile through an outer resolve's resolver belongs to that resolve.
            if claimed.nesting >= nesting { abandoned.append(claimed) } else { kept.append(claimed) }
        }
        root.claims.replaceSubrange(start..., with: kept)
        for claimed in abandoned { claimed.abandon() }
        // Dropped after the claims are settled: a completion may hold the last reference to an
        // instance whose `deinit` resolves, and what that resolve claims is kept. Taken out of
        // `pending` first: that resolve, through a resolver of this activation, may queue
        // completions of its own, which must not land in an array being emptied.
        let dropped = pending
        pending = []
        withExtendedLifetime(dropped) {}
        // The instances go with `abandoned`, here, with no lock held.
        withExtendedLifetime(abandoned) {}
    }

    /// The error for threads waiting for each other's kept instances.
    ///
    /// If the instance the other thread waits for is one this chain has already created (its
    /// factory returned; it waits only for the end of this resolve to be published), the threads
    /// merely took their singletons in opposite orders: the resolve can give its claims up, wait
    /// for the other thread's instance and try again. If its factory is still running, the two
    /// services need each other.
    func deadlock(_ deadlock: CreationWaits.Deadlock) -> ResolutionError {
        var error = ResolutionError(
            kind: .deadlock,
            service: deadlock.services.first ?? "?",
            path: path.steps(),
            relatedServices: deadlock.services
        )
        if root.claims.contains(where: { $0.cell == deadlock.held }) {
            error.contested = Contested(cell: deadlock.waitedFor, owner: deadlock.waitedForOwner)
        }
        return error
    }
}

/// A kept instance that a resolve created and will publish if its chain succeeds.
@usableFromInline
protocol ClaimedInstance: AnyObject {
    /// The identity of the registration's cell.
    var cell: ObjectIdentifier { get }
    /// The context whose resolve created it.
    var creator: ResolutionContext { get }
    /// How deep in the chain that context was.
    var nesting: Int { get }
    /// Whether its `initCompleted` closures and auto-injection have run (or it has none).
    var isComplete: Bool { get set }
    /// Publishes the instance, for the owner that claimed it.
    func publish()
    /// Gives the claim up.
    func abandon()
}

@usableFromInline
final class Claimed<Service>: ClaimedInstance {
    @usableFromInline let registration: Registration<Service>
    @usableFromInline let instance: Service
    @usableFromInline let epoch: UInt64
    /// Not retained: contexts are never freed.
    @usableFromInline unowned(unsafe) let creator: ResolutionContext
    @usableFromInline let nesting: Int
    @usableFromInline var isComplete: Bool
    /// The chain's owner when it claimed the cell.
    @usableFromInline let owner: CreationOwner

    @usableFromInline
    init(
        registration: Registration<Service>, instance: Service, epoch: UInt64, by creator: ResolutionContext,
        completes: Bool
    ) {
        self.registration = registration
        self.instance = instance
        self.epoch = epoch
        self.creator = creator
        nesting = creator.nesting
        isComplete = !completes
        owner = creator.owner
    }

    @usableFromInline
    var cell: ObjectIdentifier { ObjectIdentifier(registration.cell) }

    @usableFromInline
    func publish() {
        registration.cell.publish(instance, weakly: registration.scope == .weak, epoch: epoch, by: owner)
    }

    @usableFromInline
    func abandon() {
        registration.cell.abandon(by: owner)
    }
}

/// A kept instance another thread is creating, that a resolve gave up waiting for to end a
/// deadlock: before it runs again, it waits for that thread to publish or abandon it.
@usableFromInline
struct Contested: Sendable {
    /// Retained: the resolve that waits for it has ended, and the cell must outlive the wait.
    let cell: any CreationCell
    let owner: CreationOwner

    /// Waits until the other thread is done with the cell.
    func wait() {
        CreationWaits.waitUntilDone(cell, by: owner)
    }
}
