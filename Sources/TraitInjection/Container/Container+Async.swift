extension Container {
    // MARK: Registering async and main-actor factories

    /// Registers an async `factory` for `service` under `name`: a factory that awaits, such as
    /// one that opens a database or loads a configuration.
    ///
    /// A closure that contains `await` selects this overload. It receives an
    /// ``AsyncResolution`` to resolve its dependencies with `try await`, and the runtime
    /// arguments. Scopes, names, arguments, `initCompleted` and parent containers work as for a
    /// synchronous factory.
    ///
    /// ```swift
    /// container.register(Database.self) { r in
    ///     try await Database.open(at: try await r.resolve(Configuration.self).databasePath)
    /// }
    /// .inScope(.container)
    ///
    /// let database = try await container.resolveAsync(Database.self)
    /// ```
    ///
    /// Only an async resolve can make its instances: ``resolveAsync(_:name:arguments:)``, or an
    /// ``AsyncResolution``. A synchronous resolve that reaches it throws
    /// ``ResolutionError/Kind-swift.enum/needsAsyncResolve``. In the ``Scope/container`` scope, many
    /// tasks resolving it at once run the factory once; the others suspend until it is published.
    ///
    /// - Returns: The registration, to refine with ``Registration/inScope(_:)`` or
    ///   ``Registration/initCompleted(_:)-((AsyncResolution,Service)->Void)``.
    @discardableResult
    public func register<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @Sendable (AsyncResolution, repeat each Argument) async throws -> Service
    ) -> Registration<Service> {
        add(
            AsyncFactoryBox(factory), of: Service.self, name: name, arguments: (repeat each Argument).self, file, line,
            isolation: .async)
    }

    /// Registers a `factory` isolated to the main actor for `service` under `name`: the place for
    /// view models and other `@MainActor` types.
    ///
    /// A closure marked `@MainActor` selects this overload:
    ///
    /// ```swift
    /// container.register(ProfileViewModel.self) { @MainActor r in
    ///     ProfileViewModel(store: try r.resolve(ProfileStore.self))
    /// }
    /// ```
    ///
    /// Resolving it on the main actor works synchronously. From elsewhere,
    /// `try await container.resolveAsync(…)` runs the factory on the main actor and returns its
    /// instance; a synchronous resolve off the main actor throws
    /// ``ResolutionError/Kind-swift.enum/needsMainActor`` instead of running it there. Once a
    /// ``Scope/container`` instance exists, every resolve gets it, wherever it runs: the service
    /// is `Sendable`.
    @discardableResult
    public func register<Service: Sendable, each Argument: Sendable>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping @MainActor @Sendable (Resolution, repeat each Argument) throws -> Service
    ) -> Registration<Service> {
        // Called by a synchronous resolve only once it has checked that it runs on the main actor.
        // (Local functions: a closure literal cannot take a parameter pack.)
        @Sendable func onMainActor(_ resolution: Resolution, _ arguments: repeat each Argument) throws -> Service {
            let arguments = (repeat each arguments)
            // `assumeIsolated` runs the closure at once, on this thread, where the resolution lives.
            let resolution = UncheckedBox(resolution)
            return try MainActor.assumeIsolated { try factory(resolution.value, repeat each arguments) }
        }
        @Sendable func hop(
            _ container: Container,
            _ name: String?,
            _ isDryRun: Bool,
            _ findings: DryRunFindings?,
            _ arguments: repeat each Argument
        ) async throws(ResolutionError) -> Service {
            try await Container.resolveOnMainActor(
                container, Service.self, name: name, isDryRun: isDryRun, findings: findings,
                arguments: repeat each arguments)
        }
        return add(
            FactoryBox(onMainActor), of: Service.self, name: name, arguments: (repeat each Argument).self, file, line,
            isolation: .mainActor, mainActorHop: MainActorHop(resolve: hop))
    }

    /// Resolves `service` on the main actor, as a synchronous top-level resolve (a dry run for
    /// ``verifyAsync()``, which keeps nothing).
    @MainActor
    private static func resolveOnMainActor<Service: Sendable, each Argument: Sendable>(
        _ container: Container,
        _ service: Service.Type,
        name: String?,
        isDryRun: Bool,
        findings: DryRunFindings?,
        arguments: repeat each Argument
    ) throws(ResolutionError) -> Service {
        guard isDryRun else { return try container.resolve(service, name: name, arguments: repeat each arguments) }
        return try container.withTopLevelResolution(isDryRun: true) { context throws(ResolutionError) in
            context.dryRunFindings = findings
            return try context.resolve(service, name: name, from: container, arguments: repeat each arguments)
        }
    }

    // MARK: Resolving from async code

    /// Resolves `service` registered under `name` with runtime `arguments` from async code: any
    /// registration, async, synchronous or main-actor.
    ///
    /// ```swift
    /// let catalog = try await container.resolveAsync(Catalog.self)
    /// let viewModel = try await container.resolveAsync(ProfileViewModel.self)  // made on the main actor
    /// ```
    ///
    /// While another task creates a shared instance this needs, it suspends; it never blocks a
    /// thread. Called inside an async factory, it belongs to that factory's resolve: cycles
    /// through it are found, and the graph is shared.
    ///
    /// It is not an `async` overload of ``resolve(_:name:arguments:)``: in an async function,
    /// Swift prefers an async overload, so every existing `try container.resolve(X.self)` there
    /// would stop compiling without `await`. A separate name keeps them as they are.
    ///
    /// - Throws: ``ResolutionError``, as a synchronous resolve does; also
    ///   ``ResolutionError/Kind-swift.enum/cancelled`` when the task is cancelled while it waits
    ///   or a factory throws `CancellationError`, and ``ResolutionError/Kind-swift.enum/deadlock``
    ///   when tasks creating shared instances wait for each other.
    @inlinable
    public func resolveAsync<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Service {
        let key = ServiceKey(Service.self, name: name, arguments: (repeat each Argument).self)
        switch lookUp(key, as: Service.self) {
        case .kept(let kept):
            return kept
        case .synchronous where AsyncResolution.current == nil:
            // Not inside an async resolve: a synchronous resolve is all it takes.
            return try resolve(service, name: name, arguments: repeat each arguments)
        case .synchronous, .asynchronous:
            return try await resolveAsyncInFull(service, name: name, arguments: repeat each arguments)
        }
    }

    /// What ``resolveAsync(_:name:arguments:)`` found for a key.
    @usableFromInline
    enum AsyncLookup<Service> {
        /// The `.container` instance the registration keeps: an instance published is handed out
        /// as it is, to any resolve, nested or not.
        case kept(Service)
        /// A registration a synchronous resolve can make here: not async, and not isolated to
        /// the main actor unless this runs there.
        case synchronous
        /// Anything else, including no registration (the full resolve reports it).
        case asynchronous
    }

    /// What the registration for `key` needs.
    ///
    /// Looked up as a synchronous resolve does, in this thread's resolution context, which keeps
    /// the registration alive unretained until it ends — before this returns, with no suspension
    /// in between.
    @inlinable
    func lookUp<Service>(_ key: ServiceKey, as _: Service.Type) -> AsyncLookup<Service> {
        let found = try? withTopLevelResolution { _ throws(ResolutionError) -> AsyncLookup<Service>? in
            try registration(for: key)?.withBorrowed { object throws(ResolutionError) -> AsyncLookup<Service> in
                // Filed under the key of `Service` and the argument types.
                let registration = unsafeDowncast(object, to: Registration<Service>.self)
                if registration.needsAsyncResolve {
                    if registration.scope == .container, let kept = registration.asyncCell.keptInstance {
                        return .kept(kept)
                    }
                    return .asynchronous
                }
                if registration.scope == .container, let kept = registration.cell.strongInstance { return .kept(kept) }
                return registration.isolation == .none || MainQueue.isCurrent ? .synchronous : .asynchronous
            }
        }
        return found.flatMap { $0 } ?? .asynchronous
    }

    /// ``resolveAsync(_:name:arguments:)`` when no instance is kept.
    @usableFromInline
    func resolveAsyncInFull<Service, each Argument>(
        _ service: Service.Type,
        name: String?,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Service {
        // Inside a factory of an async resolve still running (or a task one started): part of
        // it, with a scope of its own, whose completions it runs before it returns and whose
        // shared instances are published with the resolve's, or by itself if it ends later.
        if let current = AsyncResolution.current, current.state.join(in: current.scope) {
            defer { current.state.leave() }
            let joined = current.joining(from: self)
            current.state.hold(self)
            do throws(ResolutionError) {
                let result = try await joined.resolve(service, name: name, arguments: repeat each arguments)
                try await current.state.finish(
                    joined.scope,
                    of: ServiceDescription(Service.self, name: name, arguments: (repeat each Argument).self).description
                )
                return result
            } catch {
                current.state.abandonClaims(of: joined.scope, because: error)
                throw error
            }
        }
        var attempt = 1
        while true {
            let state = AsyncResolveState(tracer: currentTracer)
            // Held for the resolves that its factories start and do not await, which look up from
            // it unretained and may outlast the caller's reference.
            state.hold(self)
            do throws(ResolutionError) {
                let result = try await AsyncResolution(
                    state: state, scope: state.rootScope, frame: nil, container: self
                )
                .resolve(service, name: name, arguments: repeat each arguments)
                try await state.finish()
                return result
            } catch {
                // Two resolves that took shared instances in opposite orders wait for each other:
                // this one, refused, gives up what it made — the other claims it again and goes
                // on — and tries again. Services that truly need each other end in a cycle.
                let retries = error.kind == .deadlock && error.isBetweenTasks && attempt < Self.deadlockAttempts
                state.fail(error, handingOver: retries)
                guard retries else { throw error }
                // Holding nothing now, let the other resolve finish what it was creating first.
                await error.contestedCreation?()
                attempt += 1
            }
        }
    }

    /// How many times a top-level async resolve runs when it keeps ending in a deadlock.
    static let deadlockAttempts = 3

    /// Resolves every registration visible from this container in a dry run, as
    /// ``verify()`` does, and reports every problem at once — including the async and main-actor
    /// registrations that ``verify()`` cannot run.
    ///
    /// ```swift
    /// @Test func graphIsComplete() async throws {
    ///     try await AppContainer.make().verifyAsync()
    /// }
    /// ```
    ///
    /// - Throws: A ``VerificationReport`` listing every registration that cannot be resolved.
    public func verifyAsync() async throws(VerificationReport) {
        var problems: [ResolutionError] = []
        var skipped: [String] = []
        let findings = DryRunFindings(checking: self)
        for registration in visibleRegistrations() {
            guard !registration.takesArguments else {
                skipped.append(registration.summary + VerificationReport.takesArguments)
                continue
            }
            let state = AsyncResolveState(isDryRun: true, dryRunFindings: findings, tracer: currentTracer)
            do throws(ResolutionError) {
                try await registration.resolve(
                    in: AsyncResolution(state: state, scope: state.rootScope, frame: nil, container: self))
                try await state.finish()
            } catch {
                state.fail(error)
                problems.append(error)
            }
        }
        let lifetimeProblems = findings.problems
        guard problems.isEmpty, lifetimeProblems.isEmpty else {
            throw VerificationReport(problems: problems, lifetimeProblems: lifetimeProblems, skipped: skipped)
        }
    }

    // MARK: Looking up without a resolution context

    /// The registration for `key`, here or in the parent chain, retained: an async resolve holds
    /// it across suspensions, when no thread's resolution context keeps its snapshot alive.
    @usableFromInline
    func retainedRegistration(for key: ServiceKey) -> (any AnyRegistration)? {
        var container: Container? = self
        while let current = container {
            if let found = current.registry.withLock({ $0.table.registration(for: key) }) { return found }
            container = current.parent
        }
        return nil
    }

    /// The registration and the container each graph key names, for the keys whose both are in
    /// this container's chain: to hold while the key is kept. Reads each container's table once.
    func owners(of keys: [GraphKey]) -> [GraphKey: [AnyObject]] {
        let wanted = Set(keys.map(\.registration))
        var registrations: [ObjectIdentifier: AnyObject] = [:]
        var containers: [ObjectIdentifier: Container] = [:]
        var container: Container? = self
        while let current = container {
            containers[ObjectIdentifier(current)] = current
            let entries = current.registry.withLock(\.table.entries)
            for (_, registration) in entries where wanted.contains(ObjectIdentifier(registration)) {
                registrations[ObjectIdentifier(registration)] = registration
            }
            container = current.parent
        }
        var owners: [GraphKey: [AnyObject]] = [:]
        for key in keys {
            guard let registration = registrations[key.registration], let lookup = containers[key.container] else {
                continue
            }
            owners[key] = [registration, lookup]
        }
        return owners
    }

    /// `File.swift:12`, for the registration made at `file` and `line`.
    static func location(_ file: StaticString, _ line: UInt) -> String {
        "\(String(describing: file).split(separator: "/").last ?? ""):\(line)"
    }
}
