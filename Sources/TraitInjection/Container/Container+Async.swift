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
        Registration(
            in: self, name: name, arguments: (repeat each Argument).self, file: file, line: line,
            factory: .async(AsyncFactoryBox(factory)))
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
        // Called by a synchronous resolve only where it runs on the main actor. (Local functions:
        // a closure literal cannot take a parameter pack.)
        @Sendable func onMainActor(_ resolution: Resolution, _ arguments: repeat each Argument) throws -> Service {
            let arguments = (repeat each arguments)
            // `assumeIsolated` runs the closure at once, on this thread, where the resolution lives.
            let resolution = UncheckedBox(resolution)
            return try MainActor.assumeIsolated { try factory(resolution.value, repeat each arguments) }
        }
        @Sendable func hop(_ resolution: AsyncResolution, _ arguments: repeat each Argument)
            async throws(ResolutionError)
            -> Service
        {
            try await resolution.onMainActor(Service.self, name: name, arguments: repeat each arguments)
        }
        return Registration(
            in: self, name: name, arguments: (repeat each Argument).self, file: file, line: line,
            factory: .mainActor(FactoryBox(onMainActor), hop: MainActorHop(hop)))
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
    /// While another task or thread creates a shared instance this needs, it suspends; it never
    /// blocks a thread. Called inside an async factory, or a task it starts, it is nested in that
    /// factory's resolve: cycles through it are found, and what it makes is kept when that resolve
    /// succeeds (or, if it ends later, when it does).
    ///
    /// It is not an `async` overload of ``resolve(_:name:arguments:)``: in an async function,
    /// Swift prefers an async overload, so every existing `try container.resolve(X.self)` there
    /// would stop compiling without `await`. A separate name keeps them as they are.
    ///
    /// - Throws: ``ResolutionError``, as a synchronous resolve does; also
    ///   ``ResolutionError/Kind-swift.enum/cancelled`` when the task is cancelled while it waits
    ///   or a factory throws `CancellationError`, and ``ResolutionError/Kind-swift.enum/deadlock``
    ///   when resolves creating shared instances need each other's.
    @inlinable
    public func resolveAsync<Service, each Argument>(
        _ service: Service.Type = Service.self,
        name: String? = nil,
        arguments: repeat each Argument
    ) async throws(ResolutionError) -> Service {
        if let box = keptBoxForTask(Service.self, name: name, arguments: (repeat each Argument).self) {
            return unsafeDowncast(box, to: Kept<Service>.self).instance
        }
        return try await resolveAsyncInFull(service, name: name, arguments: repeat each arguments)
    }

    /// ``keptBoxForTask(_:)`` of `Service` under `name` with `arguments`: out of line, so that
    /// the key is not in the async frame of ``resolveAsync(_:name:arguments:)`` (a frame larger
    /// than the task's first slab allocates one on every call, measured).
    @inlinable
    @inline(never)
    func keptBoxForTask<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: (repeat each Argument).Type
    ) -> AnyObject? {
        keptBoxForTask(ServiceKey(Service.self, name: name, arguments: arguments))
    }

    /// The `Kept<Service>` box of the instance kept strongly under `key`, if any and if no
    /// observed resolve (a trace, a dry run) asks: the shortcut of an async resolve.
    @usableFromInline
    func keptBoxForTask(_ key: ServiceKey) -> AnyObject? {
        guard !isTraced, let entry = entry(for: key), Resolve.runningTaskFrame?.resolve.isObserved != true else {
            return nil
        }
        return entry.read().box
    }

    /// ``resolveAsync(_:name:arguments:)`` when no instance is kept.
    @usableFromInline
    func resolveAsyncInFull<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments: repeat each Argument,
        key: ServiceKey? = nil,
        fileDefault: (@Sendable (Container) -> Bool)? = nil
    ) async throws(ResolutionError) -> Service {
        try await Resolve.counted { () async throws(ResolutionError) in
            let resolve = Resolve(self, entry: Resolve.taskFrame, isAsync: true)
            do throws(ResolutionError) {
                let instance = try await resolve.resolveAsync(
                    Service.self, name: name, arguments: repeat each arguments, from: self, at: resolve.entry, key: key,
                    fileDefault: fileDefault)
                try await resolve.finishAsync(
                    describing: ServiceDescription(Service.self, name: name, arguments: (repeat each Argument).self)
                        .description)
                return instance
            } catch {
                resolve.fail()
                throw error
            }
        }
    }
}
