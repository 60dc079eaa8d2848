/// Why a service could not be resolved, with the path that led there and how to fix it.
///
/// Its ``description`` is meant to be read by the developer who has to fix the registration:
///
/// ```
/// Circular dependency: Parent (App.swift:12) → Child (App.swift:15) → Parent
/// Break the cycle: inject one side in `.initCompleted { resolver, service in … }` instead of
/// its initializer, and keep the services in the `.graph` scope.
/// ```
public struct ResolutionError: Error, Sendable, CustomStringConvertible {
    /// One service on the resolution path, with where it was registered.
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        /// The service, with its name and argument types if any: `Animal (name: "dog")`.
        public let service: String
        /// Where it was registered, as `File.swift:line`.
        public let location: String
        /// The ``Assembly`` that registered it, by its type name, if an assembly did.
        public let assembly: String?

        init(service: String, location: String, assembly: String? = nil) {
            self.service = service
            self.location = location
            self.assembly = assembly
        }

        /// The step as errors show it: `Animal (name: "dog") (App.swift:12 in PetAssembly)`.
        public var description: String {
            "\(service) (\(location)\(assembly.map { " in \($0)" } ?? ""))"
        }
    }

    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// Nothing is registered under the requested type, name and argument types.
        case notRegistered
        /// A service depends on itself through initializers.
        case cycle
        /// A factory or `initCompleted` closure threw.
        case factoryFailed
        /// Threads wait for each other: each is creating a `.container` or `.weak` instance that
        /// the other needs. ``relatedServices`` lists the services along the waits. Also a
        /// synchronous resolve on the main actor or in a task that needs an instance an async
        /// resolve is creating: it does not block a thread that resolve may need.
        case deadlock
        /// The chain of dependencies is too deep for the thread's stack; ``depth`` says how deep.
        case tooDeep
        /// A ``Resolution`` was used after its top-level resolve had ended, or on another thread;
        /// or an ``AsyncResolution`` after the resolve it was made for had ended, or too late to
        /// be completed (from a task its factory did not await).
        case resolverExpired
        /// A synchronous resolve reached a registration that only an async resolve can make: its
        /// factory, or an `initCompleted` closure, awaits.
        case needsAsyncResolve
        /// A synchronous resolve off the main actor reached a registration whose factory is
        /// isolated to the main actor.
        case needsMainActor
        /// An async resolve stopped because its task was cancelled: while it waited for another
        /// task to create a shared instance, or because a factory threw `CancellationError`.
        case cancelled
        /// A ``Lazy`` or ``Provider`` was used after the container that made it was released.
        case containerReleased
    }

    /// What went wrong.
    public let kind: Kind
    /// The service asked for, with its name and argument types: `Animal (name: "dog")`.
    public internal(set) var service: String
    /// The services being resolved when it happened, outermost first.
    public let path: [Step]
    /// For ``Kind/notRegistered``: the registrations that do exist for the requested type.
    public let availableRegistrations: [String]
    /// For ``Kind/factoryFailed``: the error the factory threw.
    public let underlyingError: String?
    /// For ``Kind/deadlock``: the service this thread waits for, then each service the thread
    /// creating the previous one waits for; this thread is creating the last.
    public let relatedServices: [String]
    /// For ``Kind/tooDeep``: how many services deep the chain was when it stopped.
    public let depth: Int?
    /// For ``Kind/deadlock``: whether the resolves waiting for each other are async ones (tasks
    /// rather than threads).
    var isBetweenTasks = false
    /// For ``Kind/notRegistered`` of a service declared with ``Container/promised(file:line:column:property:)``:
    /// its property and where it is declared.
    var promised: (property: String, location: String)?
    /// A synchronous part of an async resolve unwinding to wait for this creation by suspending
    /// (never seen outside the resolve, unless a factory catches it on the way).
    var suspension: Creation?
    /// The frame that waits for ``suspension``, if one does.
    var suspendedAt: Frame?
    /// A completion's run undone: its instance was handed to another resolve to end a deadlock.
    var isInterruption = false

    /// A synchronous resolve's wait refused where it could hold up an async resolve: a matter of
    /// the thread it runs on, not of what it was making.
    var isRefusedWait = false

    /// Whether it is a failure of what threw it, which the resolves waiting for the same shared
    /// instance share — not a task's cancellation, a late resolve, the unwinding of a part that
    /// waits elsewhere (after which the instance is made again), or a refused wait.
    var isOwnFailure: Bool {
        suspension == nil && !isInterruption && !isRefusedWait && kind != .cancelled && kind != .resolverExpired
    }

    /// The error with which a synchronous part of an async resolve unwinds to wait for `creation`.
    static func suspension(for creation: Creation, at frame: Frame? = nil) -> ResolutionError {
        var error = ResolutionError(
            kind: .deadlock, service: creation.service,
            underlyingError: """
                \(creation.service) is being created elsewhere: a synchronous factory of an async \
                resolve stops here, and runs again once it can be had.
                """)
        error.suspension = creation
        error.suspendedAt = frame
        return error
    }

    /// The error that undoes the run of a completion whose instance was handed over.
    static func interrupted(_ path: [Step]) -> ResolutionError {
        var error = ResolutionError(
            kind: .deadlock, service: path.last?.service ?? "?", path: path,
            underlyingError: """
                \(path.last?.service ?? "?") was handed to a resolve on another thread or task, to end a \
                deadlock between them: its initCompleted closure runs again there.
                """)
        error.isInterruption = true
        return error
    }

    /// The error for a cycle back to `binding`, found at the end of `path`.
    static func cycle(back binding: Binding, path: [Step]) -> ResolutionError {
        let start = path.firstIndex(of: binding.step) ?? path.startIndex
        return ResolutionError(kind: .cycle, service: binding.step.service, path: Array(path[start...]))
    }

    init(
        kind: Kind,
        service: String,
        path: [Step] = [],
        availableRegistrations: [String] = [],
        underlyingError: String? = nil,
        relatedServices: [String] = [],
        depth: Int? = nil
    ) {
        self.kind = kind
        self.service = service
        self.path = path
        self.availableRegistrations = availableRegistrations
        self.underlyingError = underlyingError
        self.relatedServices = relatedServices
        self.depth = depth
    }

    /// What failed, the path that led there with where each service was registered, and how to
    /// fix it.
    public var description: String {
        let trail = path.map(\.description).joined(separator: " → ")
        switch kind {
        case .notRegistered:
            if let promised {
                var text = "\(service) is promised at \(promised.location) and nobody provides it"
                if !trail.isEmpty { text += ", needed by \(trail)" }
                return text + """
                    . Register it where the module that provides it starts: \
                    `container.\(promised.property).register { r in … }`.
                    """
            }
            var text = "\(service) is not registered"
            if !trail.isEmpty { text += ", needed by \(trail)" }
            text += "."
            if availableRegistrations.isEmpty {
                text +=
                    " No registration exists for this type: register it with `container.register(…) { resolver in … }`."
            } else {
                text += " Registered for this type: \(availableRegistrations.joined(separator: "; "))."
                text += " Resolve one of these, or register the missing name or argument types."
            }
            return text
        case .cycle:
            return """
                Circular dependency: \(trail) → \(service). Break the cycle: inject one side in \
                `.initCompleted { resolver, service in … }` instead of its initializer, and keep the \
                services in the `.graph` scope.
                """
        case .factoryFailed:
            let underlying = underlyingError ?? "an error"
            let failing = trail.isEmpty ? service : trail
            return "The factory of \(failing) threw: \(underlying)\(underlying.hasSuffix(".") ? "" : ".")"
        case .deadlock:
            if let underlyingError { return underlyingError }
            let unit = isBetweenTasks ? "task" : "thread"
            let waits = relatedServices.dropFirst().map { "while it waits for \($0)" }
            var text = "Deadlock between \(unit)s: this \(unit)"
            if !trail.isEmpty { text += ", resolving \(trail)," }
            text += " waits for \(service), which another \(unit) is creating "
            text += waits.joined(separator: ", which another \(unit) is creating ")
            text += ", which this \(unit) is creating. "
            text += """
                Two `.container` or `.weak` services that need each other, created first on two \
                \(unit)s at once, wait for each other forever: create one of them before the other \
                (resolve it at start-up), or break the dependency with `.initCompleted`.
                """
            return text
        case .tooDeep:
            let shown = trail.isEmpty ? service : "\(trail) → …"
            return """
                The dependencies of \(path.first?.service ?? service) are \(depth ?? 0) services deep, \
                more than this thread's stack can hold: \(shown) → \(service). A chain this deep is \
                usually a service that resolves itself with ever new runtime arguments: end the \
                recursion, or resolve on a thread with a larger stack.
                """
        case .resolverExpired:
            return """
                \(service) was resolved through a resolver kept past its factory: a resolver works \
                only while the resolve it was made for lasts — a synchronous one only on its \
                thread, an async one only in its factory and the tasks that factory awaits. Keep \
                the container and resolve from it instead.
                """
        case .needsAsyncResolve:
            var text = "\(service) is registered with an async factory or an async `initCompleted` closure"
            if !trail.isEmpty { text += ", needed by \(trail)" }
            text += """
                : a synchronous resolve cannot wait for it. Resolve it with \
                `try await container.resolveAsync(…)`, or from an async factory with \
                `try await r.resolve(…)`; a synchronous factory cannot depend on it.
                """
            return text
        case .needsMainActor:
            var text = "\(service) is registered on the main actor"
            if !trail.isEmpty { text += ", needed by \(trail)" }
            text += """
                : resolve it on the main actor or with `try await container.resolveAsync(…)`, \
                which runs its factory there.
                """
            return text
        case .cancelled:
            let failing = trail.isEmpty ? service : "\(trail) → \(service)"
            return """
                The resolve of \(failing) was cancelled: its task was cancelled while a factory \
                ran or while it waited for another task to create a shared instance. Nothing it \
                created is kept; resolve again from a task that is not cancelled.
                """
        case .containerReleased:
            return """
                \(service) was used after the container that made it was released: it holds its \
                container weakly, so that a service the container keeps can hold it. Keep the \
                container alive as long as what holds it is used.
                """
        }
    }
}
