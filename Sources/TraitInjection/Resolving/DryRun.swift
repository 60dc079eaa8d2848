/// What a dry run (`verify()`, `dependencyGraph()`) finds besides its
/// errors: each dependency of one registration on another, and the lifetime problems, one of
/// each; from any task of an async one.
final class DryRunFindings: Sendable {
    /// A registration that depends on another.
    struct Edge {
        let dependent: Binding
        let dependency: Binding
    }

    /// A lifetime problem, with the registrations it names.
    struct Problem {
        let problem: LifetimeProblem
        let holder: Binding
        let dependency: Binding
    }

    private struct Found {
        /// One of each, as the report lists them.
        var problems: [LifetimeProblem] = []
        /// One for each rule and pair of registrations, as the graph draws them.
        var links: [Problem] = []
        var edges: [Edge] = []
        var edgeKeys: Set<[ObjectIdentifier]> = []
        var lazyVisits: Set<LazyVisit> = []
        /// The weak properties' resolves under way, not yet begun (``holdingWeakly(at:_:)``).
        var weakResolves: Set<WeakHold> = []
        /// The instances weak properties hold, while they are made (``keeper(of:)``).
        var weakHolds: Set<WeakHold> = []
        /// What instances that weak properties held kept, unchecked (``KeptWhileHeldWeakly``).
        var keptWhileHeldWeakly: [KeptWhileHeldWeakly] = []
    }

    /// What the instance of `held`, made in `resolve`, kept while a weak property held it: a
    /// later check in the same resolve that finds that registration kept (the same `.graph`
    /// instance, made once, injected strongly too) checks these against its keeper.
    private struct KeptWhileHeldWeakly {
        let held: Binding
        /// Weak: a resolve that has ended matches none, and no later one takes its place.
        weak var resolve: Resolve?
        var kept: [Binding]
    }

    /// A weak property's resolve at `frame`, on the resolve stack of a thread (a chain's helper
    /// thread works on the stack of the thread it works for): of `binding`, once it has begun.
    private struct WeakHold: Hashable {
        let frame: ObjectIdentifier
        let stack: ObjectIdentifier
        var binding: ObjectIdentifier?
    }

    /// What keeps what a frame resolves (``keeper(of:)``).
    private enum Keeper {
        /// The nearest instance on the path kept by a shared scope.
        case kept(by: Binding)
        /// Nothing: the path has no shared instance.
        case nothing
        /// The instance made at `Frame`, which a weak property holds, and what keeps that later.
        case heldWeakly(Frame)
    }

    private struct LazyVisit: Hashable {
        let key: ServiceKey
        let dependent: ObjectIdentifier
        let holder: ObjectIdentifier?
    }

    private let found = Locked(Found())
    /// The container the dry run checks.
    let container: Container

    init(checking container: Container) {
        self.container = container
    }

    /// The lifetime problems found, one of each, in the order they were first found.
    var problems: [LifetimeProblem] { found.withLock { $0.problems } }

    /// The lifetime problems found, one for each rule and pair of registrations.
    var links: [Problem] { found.withLock { $0.links } }

    /// The dependencies found, in the order they were first found.
    var edges: [Edge] { found.withLock { $0.edges } }

    /// Records the dependency of the resolve at `frame` on `dependency`, and checks their
    /// lifetimes.
    ///
    /// The instance that keeps it is the nearest one on the path kept by a shared scope: the
    /// `.graph` and `.transient` instances in between are held by it too.
    func check(_ dependency: Binding, ancestors frame: Frame?) {
        var isHeldWeakly = false
        if let frame {
            let dependent = frame.dependent
            let edgeKey = dependent.map { [ObjectIdentifier($0), ObjectIdentifier(dependency)] }
            let resolve = WeakHold(frame: ObjectIdentifier(frame), stack: Self.currentStack)
            found.withLock { found in
                if let dependent, let edgeKey, found.edgeKeys.insert(edgeKey).inserted {
                    found.edges.append(Edge(dependent: dependent, dependency: dependency))
                }
                // The first resolve at a weak property's frame, on its stack, is the property's.
                if found.weakResolves.remove(resolve) != nil {
                    var hold = resolve
                    hold.binding = ObjectIdentifier(dependency)
                    found.weakHolds.insert(hold)
                    isHeldWeakly = true
                }
            }
        }
        if isHeldWeakly { return }
        switch keeper(of: frame) {
        case .kept(by: let holder):
            checkLifetimes(of: dependency, keptBy: holder)
            for kept in keptWhileHeldWeakly(dependency, in: frame?.resolve) {
                checkLifetimes(of: kept, keptBy: holder)
            }
        case .heldWeakly(let held):
            // With what `dependency` kept while held weakly itself, in this resolve.
            let kept = [dependency] + keptWhileHeldWeakly(dependency, in: held.resolve)
            found.withLock { found in
                let index =
                    found.keptWhileHeldWeakly.firstIndex { $0.held === held.binding && $0.resolve === held.resolve }
                    ?? {
                        found.keptWhileHeldWeakly.append(
                            KeptWhileHeldWeakly(held: held.binding, resolve: held.resolve, kept: []))
                        return found.keptWhileHeldWeakly.count - 1
                    }()
                for binding in kept where !found.keptWhileHeldWeakly[index].kept.contains(where: { $0 === binding }) {
                    found.keptWhileHeldWeakly[index].kept.append(binding)
                }
            }
        case .nothing: return
        }
    }

    /// What the instance of `binding` made in `resolve` kept while a weak property held it.
    private func keptWhileHeldWeakly(_ binding: Binding, in resolve: Resolve?) -> [Binding] {
        guard let resolve else { return [] }
        return found.withLock { found in
            found.keptWhileHeldWeakly.first { $0.held === binding && $0.resolve === resolve }?.kept ?? []
        }
    }

    private func checkLifetimes(of dependency: Binding, keptBy holder: Binding) {
        if holder.scope.lifetime == .container {
            switch dependency.scope.lifetime {
            case .whileHeld: add(.singletonKeepsWeak, holder, dependency)
            case .untilReset: add(.singletonKeepsAppScoped, holder, dependency)
            case .resolve, .container: break
            }
        }
        if holder.reinitializeStrategy == .reUse, dependency.isShared, dependency.reinitializeStrategy == .reCreate,
            !dependency.isInstance
        {
            add(.reUseKeepsReCreate, holder, dependency)
        }
    }

    /// The resolve stack of the calling thread, or of the thread a helper thread works for.
    private static var currentStack: ObjectIdentifier {
        ObjectIdentifier(ResolvingThread.current.stack)
    }

    /// The nearest registration on the path from `frame` out whose instance a shared scope keeps:
    /// what holds that frame's instance, and what it resolves — up to an instance a weak property
    /// holds: nothing above keeps that one, nor what it holds. A ``Lazy``'s own is passed over: a
    /// `Lazy` keeps its instance for what holds the `Lazy`, and a read of it resolves the service
    /// for the code that reads it.
    private func keeper(of frame: Frame?) -> Keeper {
        guard let frame else { return .nothing }
        let stack = Self.currentStack
        let holds = found.withLock { $0.weakHolds.filter { $0.stack == stack } }
        for frame in frame.chain {
            if frame.binding.isShared && !frame.binding.isLazys { return .kept(by: frame.binding) }
            if let outer = frame.outer,
                holds.contains(
                    WeakHold(frame: ObjectIdentifier(outer), stack: stack, binding: ObjectIdentifier(frame.binding)))
            {
                return .heldWeakly(frame)
            }
        }
        return .nothing
    }

    /// For a dependency under `key` that a kept instance, built from its own container's
    /// registrations like a real resolve's, does not find there: if ``container``, which the dry
    /// run checks, registers it, the kept instance belongs to a parent of that container and
    /// needs what only a child registers. Records the problem, and returns that registration for
    /// the dry run to go on with; `nil` if it is not registered there either.
    ///
    /// Only where `lookup` is a parent of ``container``, and not for a declared service: its
    /// resolve files its default where the parent finds it, as a real resolve does, or fails as
    /// one does if it is promised. A registration of an `Optional` type is left to the resolve's
    /// look for `T` (``ignoredChild(_:from:at:)``).
    func childOnly(_ key: ServiceKey, from lookup: Container, at frame: Frame?) -> RegistryEntry? {
        guard let (holder, binding, entry) = childOnlyRegistration(key, from: lookup, at: frame), !binding.isOptional
        else { return nil }
        add(.parentNeedsChild, holder, binding)
        return entry
    }

    /// For the service of a `T?` that a kept instance, built from its own container's
    /// registrations, gets as `nil`: records each of `keys` (`T`'s, `T?`'s) that only a child
    /// registers (``LifetimeProblem/Rule/parentIgnoresChild``). The resolve gets `nil`, as a real
    /// one does.
    func ignoredChild(_ keys: ServiceKey..., from lookup: Container, at frame: Frame?) {
        for key in keys {
            guard let (holder, binding, _) = childOnlyRegistration(key, from: lookup, at: frame) else { continue }
            add(.parentIgnoresChild, holder, binding)
        }
    }

    /// The registration under `key` that only the checked child has, where a kept instance
    /// resolves from a parent (``childOnly(_:from:at:)``), with that instance's registration.
    private func childOnlyRegistration(_ key: ServiceKey, from lookup: Container, at frame: Frame?)
        -> (holder: Binding, binding: Binding, entry: RegistryEntry)?
    {
        guard !key.isDeclared, container !== lookup, let (entry, _) = container.lookUp(key),
            sequence(first: container, next: \.parent).contains(where: { $0 === lookup }),
            case .kept(by: let holder) = keeper(of: frame)
        else { return nil }
        let binding = entry.read().binding
        return binding.isStandIn ? nil : (holder, binding, entry)
    }

    /// Runs `body`, which resolves what a weak property (``WeakInject``) of the instance `frame`
    /// completes holds, on this thread: a dependency of that instance (an edge), but not one it
    /// keeps, nor what the held instance keeps.
    ///
    /// The first resolve at `frame` on this thread's resolve stack is the property's: other tasks
    /// of the resolve may resolve at `frame` at the same time, and a factory may have kept a
    /// resolver of `frame` and resolve with it later, while `body` runs — those are checked as
    /// ever.
    func holdingWeakly<Result, Failure>(at frame: Frame, _ body: () throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        let resolve = WeakHold(frame: ObjectIdentifier(frame), stack: Self.currentStack)
        found.withLock { _ = $0.weakResolves.insert(resolve) }
        defer {
            found.withLock { found in
                found.weakResolves.remove(resolve)
                found.weakHolds = found.weakHolds.filter { $0.frame != resolve.frame || $0.stack != resolve.stack }
            }
        }
        return try withExtendedLifetime(frame) { () throws(Failure) in try body() }
    }

    /// Whether the dry run has yet to follow a ``Lazy`` of `key` made at `frame`: it follows each
    /// once per registration that makes it and instance that keeps it.
    func isFirstVisit(to key: ServiceKey, at frame: Frame) -> Bool {
        guard let dependent = frame.dependent else { return false }
        let holder: ObjectIdentifier? =
            if case .kept(by: let holder) = keeper(of: frame) { ObjectIdentifier(holder) } else { nil }
        let visit = LazyVisit(key: key, dependent: ObjectIdentifier(dependent), holder: holder)
        return found.withLock { $0.lazyVisits.insert(visit).inserted }
    }

    /// Records a problem: in the report once, however many registrations it names (a registration
    /// made while the dry run runs is made anew on each run of its factory); in the graph once
    /// for each pair of registrations.
    private func add(_ rule: LifetimeProblem.Rule, _ holder: Binding, _ dependency: Binding) {
        let problem = LifetimeProblem(
            rule: rule, dependencyScope: dependency.scope.description, holder: holder.step, dependency: dependency.step)
        found.withLock { found in
            if !found.problems.contains(problem) { found.problems.append(problem) }
            let isLinked = found.links.contains { link in
                link.problem.rule == rule && link.holder === holder && link.dependency === dependency
            }
            if !isLinked { found.links.append(Problem(problem: problem, holder: holder, dependency: dependency)) }
        }
    }
}

/// Why a later synchronous resolve of a service would fail, found without resolving it: what a
/// dry run checks for a ``Lazy`` or ``Provider``.
struct LaterResolveProblem {
    let kind: ResolutionError.Kind
    /// The service, with its name.
    let service: String
    let serviceType: ObjectIdentifier

    /// Why a synchronous resolve of `Service` under `name` from `container` would fail: it is not
    /// registered, or only an async resolve can make it; looked for through `Optional`, ``Lazy``
    /// and ``Provider`` as a resolve does. `nil` if it would not.
    static func of<Service>(_: Service.Type, name: String?, from container: Container) -> LaterResolveProblem? {
        let description = ServiceDescription(Service.self, name: name, arguments: Void.self).description
        if let (entry, _) = container.lookUp(ServiceKey(Service.self, name: name, arguments: Void.self)) {
            guard entry.read().binding.needsAsyncResolve else { return nil }
            return LaterResolveProblem(
                kind: .needsAsyncResolve, service: description, serviceType: ObjectIdentifier(Service.self))
        }
        if let deferred = Service.self as? any DeferredService.Type {
            return deferred.laterResolveProblem(from: container, name: name)
        }
        if let optional = Service.self as? any OptionalService.Type {
            return optional.laterResolveProblem(from: container, name: name)
        }
        return LaterResolveProblem(
            kind: .notRegistered, service: description, serviceType: ObjectIdentifier(Service.self))
    }
}
