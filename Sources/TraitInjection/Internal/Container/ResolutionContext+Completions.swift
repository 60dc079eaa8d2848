// The `initCompleted` closures and auto-injections a resolve queues until its outermost factory
// has returned.

extension ResolutionContext {

    /// Queues `completion` to run once the outermost factory has returned. (A typed-throws closure
    /// here crashes the 6.3 compiler, so the queue holds untyped ones.)
    @usableFromInline
    func enqueue<Service>(
        _ completion: @escaping @Sendable (Resolution, Service) throws -> Void,
        for instance: Service,
        of registration: Registration<Service>,
        from container: Container
    ) {
        pending.append(
            PendingCompletion(registration: registration, container: container) { resolution in
                try completion(resolution, instance)
            }
        )
    }

    func drainCompletions() throws(ResolutionError) {
        guard !isDraining else { return }
        isDraining = true
        defer { isDraining = false }
        var runs = 0
        while let next = pending.first {
            runs += 1
            guard runs <= Self.completionLimit else {
                throw ResolutionError.tooManyCompletions(
                    next.registration, path: path.steps() + [next.registration.step])
            }
            pending.removeFirst()
            // The completion's frame is on the path while it runs, for errors and for cycles
            // through nested top-level resolves.
            path.push(next.registration)
            do {
                try next.run(resolution(from: next.container))
            } catch {
                let wrapped = wrap(error)
                path.pop()
                throw wrapped
            }
            path.pop()
        }
    }
}

extension ResolutionError {
    /// The error for a resolve whose `initCompleted` closures keep creating instances, at the
    /// completion of `registration`.
    static func tooManyCompletions(_ registration: any AnyRegistration, path: [Step]) -> ResolutionError {
        ResolutionError(
            kind: .factoryFailed,
            service: registration.step.service,
            path: path,
            underlyingError: """
                more than \(ResolutionContext.completionLimit) initCompleted closures ran in one resolve: \
                a closure keeps creating new instances. Keep services that close a cycle in the \
                `.graph` scope (the default) rather than `.transient`.
                """
        )
    }
}
