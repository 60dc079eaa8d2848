public import Synchronization

// How `Container.resolve` runs a top-level resolve in the thread's resolution context, and
// retries one that two threads deadlocked by taking the same singletons in opposite orders.

extension Container {
    /// One try at a top-level resolve.
    @inlinable
    func resolveOnce<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        try withTopLevelResolution { context throws(ResolutionError) in
            try context.resolve(service, name: name, from: self, arguments: repeat each arguments)
        }
    }

    /// A top-level resolve of `registration`, which need not be filed here (a ``Lazy``'s own),
    /// retried as ``resolve(_:name:arguments:)`` is after a deadlock.
    func resolve<Service>(_ registration: Registration<Service>) throws(ResolutionError) -> Service {
        func once() throws(ResolutionError) -> Service {
            try withTopLevelResolution { context throws(ResolutionError) in
                try context.resolve(registration, from: self)
            }
        }
        do {
            return try once()
        } catch  where error.isRetryable {
            return try retryAfterDeadlock(error, once)
        }
    }

    /// Runs `body` as a top-level resolve: in this thread's context (or a nested one), which
    /// finishes the resolve when `body` returns (completions, then publication of the kept
    /// instances it created) or undoes it when anything throws.
    @inlinable
    func withTopLevelResolution<Result>(
        isDryRun: Bool = false,
        _ body: (ResolutionContext) throws(ResolutionError) -> Result
    ) throws(ResolutionError) -> Result {
        // Not retained: contexts are never freed.
        try ResolutionContext.acquire(threadContexts).withBorrowed { context throws(ResolutionError) in
            defer { ResolutionContext.release(context) }
            do throws(ResolutionError) {
                if isDryRun {
                    context.isDryRun = true
                    context.isObserved = true
                }
                if isTracing.load(ordering: .relaxed) { context.startTrace(from: self) }
                let result = try body(context)
                if context.hasDeferredWork { try context.complete() }
                return result
            } catch {
                context.fail()
                throw error
            }
        }
    }

    /// Runs a top-level resolve again that ended in a deadlock only because two threads took the
    /// same singletons in opposite orders: the claims it gave up let the other thread go on, so a
    /// new try succeeds. A resolve nested in another on this thread cannot give up the outer
    /// one's claims, so it reports the deadlock at once.
    @usableFromInline
    func retryAfterDeadlock<Result>(
        _ error: ResolutionError,
        _ resolve: () throws(ResolutionError) -> Result
    ) throws(ResolutionError) -> Result {
        var last = error
        for _ in 0..<3 where !ResolutionContext.isResolving(threadContexts) {
            // This resolve holds nothing now: let the other thread finish what it was creating.
            last.contested?.wait()
            do {
                return try resolve()
            } catch  where error.isRetryable {
                last = error
            }
        }
        throw last
    }
}
