import Synchronization
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

@Suite("Container: lifetime checks in verify()")
struct ContainerLifetimeTests {
    final class Session: Sendable {}

    final class Cache: Sendable {
        let session: Session
        init(session: Session) { self.session = session }
    }

    /// A graph-scoped service between `Cache` and `Session`.
    final class Middle: Sendable {
        let session: Session
        init(session: Session) { self.session = session }
    }

    final class Deferred: Sendable {
        let session: Provider<Session>
        init(session: Provider<Session>) { self.session = session }
    }

    final class OptionalCache: Sendable {
        let session: Session?
        init(session: Session?) { self.session = session }
    }

    /// A child of a container whose singleton resolves `Session?`, with what `register` adds.
    func childOfOptionalCache(_ register: (Container) -> Void) -> Container {
        let parent = Container()
        parent.register(OptionalCache.self) { r in OptionalCache(session: try r.resolve(Session?.self)) }
            .inScope(.container)
        let child = Container(parent: parent)
        register(child)
        return child
    }

    /// The lifetime problems `verify()` reports, or none if it passes.
    func lifetimeProblems(_ container: Container) -> [LifetimeProblem] {
        do {
            try container.verify()
            return []
        } catch {
            return error.lifetimeProblems
        }
    }

    @Test("A .container singleton keeping a .weak service, with both locations")
    func singletonKeepsWeak() throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        container.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        let problems = lifetimeProblems(container)
        #expect(problems.map(\.rule) == [.singletonKeepsWeak])
        let problem = try #require(problems.first)
        #expect(problem.holder.service == "Cache" && problem.dependency.service == "Session")
        #expect(problem.holder.location.hasPrefix("ContainerLifetimeTests.swift:"))
        #expect(problem.dependency.location.hasPrefix("ContainerLifetimeTests.swift:"))
        #expect(problem.description.contains("Cache (ContainerLifetimeTests.swift:"))
        #expect(problem.description.contains("keeps Session (ContainerLifetimeTests.swift:"))
        #expect(problem.description.contains("`Provider<Session>`"))
        // The resolve itself works: only verify() tells.
        _ = try container.resolve(Cache.self)
    }

    @Test("Kept through a .graph or .transient service in between, it is found too")
    func throughGraphService() {
        for scope in [Scope<Middle>.graph, .transient] {
            let container = Container()
            container.register(Session.self) { _ in Session() }.inScope(.weak)
            container.register(Middle.self) { r in Middle(session: try r.resolve(Session.self)) }.inScope(scope)
            container.register(Cache.self) { r in Cache(session: try r.resolve(Middle.self).session) }
                .inScope(.container)
            #expect(lifetimeProblems(container).map(\.rule) == [.singletonKeepsWeak])
        }
    }

    @Test("Through a Lazy, which keeps what it resolves: found; through a Provider: not a problem")
    func throughLazy() {
        final class LazyCache: Sendable {
            let session: Lazy<Session>
            init(session: Lazy<Session>) { self.session = session }
        }
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        container.register(LazyCache.self) { r in LazyCache(session: try r.resolve(Lazy<Session>.self)) }
            .inScope(.container)
        container.register(Deferred.self) { r in Deferred(session: try r.resolve(Provider<Session>.self)) }
            .inScope(.container)
        let problems = lifetimeProblems(container)
        #expect(problems.map(\.rule) == [.singletonKeepsWeak])
        #expect(problems.first?.holder.service.hasSuffix("LazyCache") == true)
        let reUse = Container()
        reUse.register(Session.self) { _ in Session() }.inScope(.container)
        reUse.register(LazyCache.self) { r in LazyCache(session: try r.resolve(Lazy<Session>.self)) }
            .inScope(.container).reinitialize(.reUse)
        #expect(lifetimeProblems(reUse).map(\.rule) == [.reUseKeepsReCreate])
    }

    @Test("A Lazy read in a factory: what reads it keeps the service, not the Lazy's own instance")
    func lazyReadInAFactory() throws {
        final class Reader: Sendable {
            let session: Session
            init(session: Lazy<Session>) throws { self.session = try session.value }
        }
        func problems(reader: Scope<Reader>, strategy: ReinitializeStrategy, session: Scope<Session>)
            -> [LifetimeProblem]
        {
            let container = Container()
            container.register(Session.self) { _ in Session() }.inScope(session)
            container.register(Reader.self) { r in try Reader(session: try r.resolve(Lazy<Session>.self)) }
                .inScope(reader).reinitialize(strategy)
            return lifetimeProblems(container)
        }
        // The Lazy's own instance is kept `.reUse` in a `.container` scope of its own: neither is
        // the reader's.
        #expect(problems(reader: .container, strategy: .reCreate, session: .container).isEmpty)
        #expect(problems(reader: .transient, strategy: .reCreate, session: .weak).isEmpty)
        #expect(problems(reader: .graph, strategy: .reCreate, session: .container).isEmpty)
        // What the reader keeps is checked as if it had resolved the service itself.
        let reUse = problems(reader: .container, strategy: .reUse, session: .container)
        #expect(reUse.map(\.rule) == [.reUseKeepsReCreate])
        #expect(reUse.first?.holder.service.hasSuffix("Reader") == true)
        let weak = problems(reader: .container, strategy: .reCreate, session: .weak)
        #expect(weak.map(\.rule) == [.singletonKeepsWeak])
        #expect(weak.first?.holder.service.hasSuffix("Reader") == true)
    }

    @Test("An instance registered as it is is the same after reinitialize(): a .reUse holder may keep it")
    func reUseKeepsAnInstance() throws {
        let container = Container()
        let session = Session()
        let completions = Mutex(0)
        container.register(Session.self, instance: session)
            .implements((any Sendable).self) { $0 }
            .initCompleted { _, _ in completions.withLock { $0 += 1 } }
        container.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }
            .inScope(.container).reinitialize(.reUse)
        container.register(Cache.self, name: "forwarded") { r in
            Cache(session: try r.resolve((any Sendable).self) as! Session)
        }
        .inScope(.container).reinitialize(.reUse)
        #expect(lifetimeProblems(container).isEmpty)
        let cache = try container.resolve(Cache.self)
        let completed = completions.withLock { $0 }
        container.reinitialize()
        #expect(try container.resolve(Session.self) === session)
        #expect(try container.resolve(Cache.self) === cache && cache.session === session)
        // Handed out again after `reinitialize()`: its `initCompleted` runs again, and may refresh
        // what it set.
        #expect(completions.withLock { $0 } == completed + 1)
    }

    @Test("A child overriding a declared service that a parent's singleton uses: its default, no problem")
    func childOverridesADeclaredService() throws {
        let root = Container()
        let child = Container(parent: root)
        child.lifetimeSession.register { _ in Session() }
        #expect(throws: Never.self) { try child.verify(including: \.lifetimeCache, \.lifetimeSession) }
        let cache = try child.lifetimeCache()
        #expect(cache.session !== (try child.lifetimeSession()))
        #expect(cache.session === (try root.lifetimeSession()))
        // Promised, it has no default: a real resolve fails, and so does the check, with the
        // promise's error.
        let promisedRoot = Container()
        let promisedChild = Container(parent: promisedRoot)
        promisedChild.lifetimePromisedSession.register { _ in Session() }
        #expect {
            try promisedChild.lifetimePromisingCache()
        } throws: { error in
            (error as? ResolutionError)?.kind == .notRegistered
        }
        #expect {
            try promisedChild.verify()
        } throws: { error in
            let report = error as? VerificationReport
            return report?.lifetimeProblems == [] && report?.problems.map(\.kind) == [.notRegistered]
        }
    }

    @Test("A parent's singleton resolving T? that only a child registers gets nil: said so, not that it fails")
    func parentIgnoresChild() async throws {
        let child = childOfOptionalCache { $0.register(Session.self) { _ in Session() } }
        let problems = lifetimeProblems(child)
        #expect(problems.map(\.rule) == [.parentIgnoresChild])
        #expect(problems.first?.holder.service.hasSuffix("OptionalCache") == true)
        #expect(problems.first?.description.contains("gets `nil`") == true)
        #expect(problems.first?.description.contains("fails") == false)
        // What the check says is what a resolve does; and the graph draws no edge it never takes.
        #expect(try child.resolve(OptionalCache.self).session == nil)
        let graph = child.dependencyGraph()
        #expect(graph.edges.isEmpty)
        #expect(graph.lifetimeEdges.map { graph.nodes[$0.to].service } == ["Session"])
        // From an async check too.
        let asyncParent = Container()
        asyncParent.register(OptionalCache.self) { r async throws in
            OptionalCache(session: try await r.resolve(Session?.self))
        }
        .inScope(.container)
        let asyncChild = Container(parent: asyncParent)
        asyncChild.register(Session.self) { _ in Session() }
        await #expect {
            try await asyncChild.verifyAsync()
        } throws: { error in
            (error as? VerificationReport)?.lifetimeProblems.map(\.rule) == [.parentIgnoresChild]
        }
        #expect(try await asyncChild.resolveAsync(OptionalCache.self).session == nil)
    }

    @Test("A @WeakInject property does not keep what it holds; an @Inject one beside it does")
    func weakInjectKeepsNothing() async throws {
        final class WeakHolder: @unchecked Sendable {
            @WeakInject var session: Session?
        }
        final class BothHolder: @unchecked Sendable {
            @WeakInject var weakSession: Session?
            @Inject var session: Session
        }
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        container.register(WeakHolder.self) { _ in WeakHolder() }.inScope(.container)
        #expect(lifetimeProblems(container).isEmpty)
        await #expect(throws: Never.self) { try await container.verifyAsync() }
        let graph = container.dependencyGraph()
        #expect(graph.edges.map { graph.nodes[$0.to].service } == ["Session"])
        #expect(graph.edges.allSatisfy { graph.nodes[$0.from].service.hasSuffix("WeakHolder") })
        #expect(graph.lifetimeEdges.isEmpty)
        // What the check says is what a resolve does: nothing keeps the session.
        #expect(try container.resolve(WeakHolder.self).session == nil)
        container.register(BothHolder.self) { _ in BothHolder() }.inScope(.container)
        let problems = lifetimeProblems(container)
        #expect(problems.map(\.rule) == [.singletonKeepsWeak])
        #expect(problems.first?.holder.service.hasSuffix("BothHolder") == true)
    }

    @Test("What a @WeakInject property holds keeps what it resolves, not the holder; other resolves are checked")
    func weakInjectHoldsItsOwn() throws {
        final class Middle: Sendable {
            let session: Session
            init(session: Session) { self.session = session }
        }
        final class WeakHolder: @unchecked Sendable {
            @WeakInject var middle: Middle?
        }
        // A service it holds weakly, transient or `.graph`, keeps the `.weak` session; the
        // singleton keeps neither.
        for scope in [Scope<Middle>.transient, .graph] {
            let container = Container()
            container.register(Session.self) { _ in Session() }.inScope(.weak)
            container.register(Middle.self) { r in Middle(session: try r.resolve(Session.self)) }.inScope(scope)
            container.register(WeakHolder.self) { _ in WeakHolder() }.inScope(.container)
            #expect(lifetimeProblems(container).isEmpty, "\(scope)")
            #expect(try container.resolve(WeakHolder.self).middle == nil)
        }
        // A resolve with the singleton's own resolver while the weak property resolves (a
        // factory it calls back) is the singleton's, and is checked.
        final class Keeper: Sendable {
            let session: Session?
            init(session: Session?) { self.session = session }
        }
        final class SessionHolder: @unchecked Sendable {
            @WeakInject var cache: Cache?
        }
        /// The keeper's factory's callback: set, called and cleared on the thread that runs it.
        final class Hook: @unchecked Sendable {
            var call: (() throws -> Session)?
        }
        let hook = Hook()
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        container.register(Cache.self) { _ in Cache(session: try hook.call?() ?? Session()) }.inScope(.container)
        container.register(Keeper.self) { [unowned container] r in
            var kept: Session?
            hook.call = {
                let session = try r.resolve(Session.self)
                kept = session
                return session
            }
            defer { hook.call = nil }
            try container.autoInject(into: SessionHolder())
            return Keeper(session: kept)
        }
        .inScope(.container)
        let problems = lifetimeProblems(container)
        #expect(problems.map(\.rule) == [.singletonKeepsWeak])
        #expect(problems.first?.holder.service.hasSuffix("Keeper") == true)
    }

    @Test("What a weakly held chain keeps is not the holder's, also where the chain goes on on a helper thread")
    func weakHoldAcrossAHelperThread() async {
        final class Link: @unchecked Sendable {
            let next: AnyObject
            init(next: AnyObject) { self.next = next }
        }
        final class ChainHolder: @unchecked Sendable {
            @WeakInject(name: "0") var head: Link?
        }
        // Deep enough on a 512 KiB stack that the chain moves to a helper thread on the way.
        let depth = 300
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        for level in 0..<depth {
            container.register(Link.self, name: "\(level)") { r in
                Link(
                    next: level == depth - 1
                        ? try r.resolve(Session.self) : try r.resolve(Link.self, name: "\(level + 1)"))
            }
        }
        container.register(ChainHolder.self) { _ in ChainHolder() }.inScope(.container)
        let problems = Mutex<[LifetimeProblem]?>(nil)
        await onOwnThreads(stackSize: 512 * 1024) { _ in
            problems.withLock { $0 = lifetimeProblems(container) }
        }
        #expect(problems.withLock { $0 } == [])
    }

    @Test("A .graph service held weakly, then kept by the same instance: what it keeps is checked")
    func graphServiceHeldWeaklyThenKept() {
        final class Middle: Sendable {
            let session: Session
            init(session: Session) { self.session = session }
        }
        final class BothHolder: @unchecked Sendable {
            @WeakInject var weakMiddle: Middle?
            @Inject var middle: Middle
        }
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        container.register(Middle.self) { r in Middle(session: try r.resolve(Session.self)) }.inScope(.graph)
        container.register(BothHolder.self) { _ in BothHolder() }.inScope(.container)
        let problems = lifetimeProblems(container)
        #expect(problems.map(\.rule) == [.singletonKeepsWeak])
        #expect(problems.first?.holder.service.hasSuffix("BothHolder") == true)
        // Only in the same resolve: a parent's singleton keeping its own `Middle` is not charged
        // with what a child's weakly held one resolved there.
        final class WeakHolder: @unchecked Sendable {
            @WeakInject var middle: Middle?
        }
        final class StrongHolder: @unchecked Sendable {
            @Inject var middle: Middle
        }
        for scope in [Scope<Middle>.graph, .transient] {
            let parent = Container()
            parent.register(Session.self) { _ in Session() }.inScope(.container)
            parent.register(Middle.self) { r in Middle(session: try r.resolve(Session.self)) }.inScope(scope)
            parent.register(StrongHolder.self) { _ in StrongHolder() }.inScope(.container)
            let child = Container(parent: parent)
            child.register(Session.self) { _ in Session() }.inScope(.weak)
            child.register(WeakHolder.self) { _ in WeakHolder() }
            #expect(lifetimeProblems(child).isEmpty, "\(scope)")
        }
    }

    @Test("A problem with a registration made anew on each run of a factory is reported once")
    func registrationMadeDuringTheRun() {
        final class Keeper: Sendable {
            let session: Session
            init(session: Session) { self.session = session }
        }
        let container = Container()
        container.register(Keeper.self) { [unowned container] _ in
            let scratch = Container(parent: container)
            scratch.register(Session.self) { _ in Session() }.inScope(.weak)
            return Keeper(session: try scratch.resolve(Session.self))
        }
        .inScope(.container)
        for name in ["a", "b", "c"] {
            container.register(Cache.self, name: name) { r in Cache(session: try r.resolve(Keeper.self).session) }
        }
        #expect(lifetimeProblems(container).map(\.rule) == [.singletonKeepsWeak])
    }

    @Test("Two problems between different registrations that read the same are both drawn")
    func sameLookingProblems() throws {
        final class Outer: Sendable {
            let cache: Cache
            init(cache: Cache) { self.cache = cache }
        }
        func registerPair(in container: Container) {
            container.register(Session.self) { _ in Session() }.inScope(.weak)
            container.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        }
        let parent = Container()
        registerPair(in: parent)
        parent.register(Outer.self) { r in Outer(cache: try r.resolve(Cache.self)) }.inScope(.container)
        let child = Container(parent: parent)
        registerPair(in: child)
        let graph = child.dependencyGraph()
        let caches = graph.nodes.indices.filter { graph.nodes[$0].service == "Cache" }
        #expect(caches.count == 2)
        // Each Cache keeps its own container's `.weak` Session.
        #expect(Set(graph.lifetimeEdges.map(\.from)) == Set(caches))
        for edge in graph.lifetimeEdges {
            #expect(graph.edges.contains { $0.from == edge.from && $0.to == edge.to })
        }
    }

    @Test("A parent's singleton resolving T? where a child registers the type T? itself: it gets nil")
    func childRegistersAnOptionalType() throws {
        let child = childOfOptionalCache { $0.register(Session?.self) { _ in Session() } }
        let problems = lifetimeProblems(child)
        #expect(problems.map(\.rule) == [.parentIgnoresChild])
        #expect(problems.first?.description.contains("resolves `Optional<Session>` and gets `nil`") == true)
        #expect(try child.resolve(OptionalCache.self).session == nil)
        #expect(child.dependencyGraph().edges.isEmpty)
        // Where the parent provides `Session`, its `Session?` resolves it: no problem.
        let providing = childOfOptionalCache { $0.register(Session?.self) { _ in nil } }
        providing.parent?.register(Session.self) { _ in Session() }
        #expect(lifetimeProblems(providing).isEmpty)
        #expect(try providing.resolve(OptionalCache.self).session != nil)
    }

    @Test("A .reUse instance keeping a .reCreate one")
    func reUseKeepsReCreate() {
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.container)
        container.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }
            .inScope(.container).reinitialize(.reUse)
        let problems = lifetimeProblems(container)
        #expect(problems.map(\.rule) == [.reUseKeepsReCreate])
        #expect(problems.first?.description.contains("`reinitialize()`") == true)
    }

    @Test("A parent's singleton needing what only a child registers; its resolve does fail")
    func parentNeedsChild() {
        let parent = Container()
        parent.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        let child = Container(parent: parent)
        child.register(Session.self) { _ in Session() }
        let problems = lifetimeProblems(child)
        #expect(problems.map(\.rule) == [.parentNeedsChild])
        #expect(problems.first?.description.contains("only a child container registers") == true)
        #expect {
            try child.resolve(Cache.self)
        } throws: { error in
            (error as? ResolutionError)?.kind == .notRegistered
        }
    }

    @Test("No problem where lifetimes fit")
    func noFalseAlarms() {
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.container)
        container.register(Session.self, name: "weak") { _ in Session() }.inScope(.weak)
        container.register(Session.self, name: "fresh") { _ in Session() }
        // Longer-lived dependencies, and shorter-lived holders.
        container.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        container.register(Cache.self, name: "weak") { r in Cache(session: try r.resolve(Session.self, name: "weak")) }
            .inScope(.weak)
        container.register(Cache.self, name: "fresh") { r in Cache(session: try r.resolve(Session.self, name: "weak")) }
        container.register(Cache.self, name: "own") { r in Cache(session: try r.resolve(Session.self, name: "fresh")) }
            .inScope(.container)
        container.register(Cache.self, name: "both reUse") { r in Cache(session: try r.resolve(Session.self)) }
            .inScope(.container).reinitialize(.reUse)
        // A Provider resolves later: nothing is kept.
        container.register(Deferred.self) { r in Deferred(session: try r.resolve(Provider<Session>.self, name: "weak"))
        }
        .inScope(.container)
        container.register(Session.self, name: "reUse") { _ in Session() }.inScope(.container).reinitialize(.reUse)
        container.register(Cache.self, name: "reUse") { r in Cache(session: try r.resolve(Session.self, name: "reUse"))
        }
        .inScope(.container).reinitialize(.reUse)
        // "both reUse" keeps a .reCreate Session: the one expected problem.
        #expect(lifetimeProblems(container).map(\.holder.service) == ["Cache (name: \"both reUse\")"])
        // A child overriding what its parent's singleton needs is not a lifetime problem.
        let parent = Container()
        parent.register(Session.self) { _ in Session() }
        parent.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        let child = Container(parent: parent)
        child.register(Session.self) { _ in Session() }
        #expect(lifetimeProblems(child).isEmpty)
    }

    @Test("Each problem once, however many registrations reach it; the report lists them")
    func reportedOnce() throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        container.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        container.register(Middle.self) { r in Middle(session: try r.resolve(Cache.self).session) }
        container.register(Deferred.self) { r in
            _ = try r.resolve(Middle.self)
            return Deferred(session: try r.resolve(Provider<Session>.self))
        }
        #expect {
            try container.verify()
        } throws: { error in
            guard let report = error as? VerificationReport else { return false }
            return report.problems.isEmpty && report.lifetimeProblems.count == 1
                && report.description.hasPrefix("1 lifetime problem(s):\n- Cache (")
        }
    }

    @Test("verifyAsync() applies the same rules to async registrations")
    func asyncRules() async {
        let container = Container()
        container.register(Session.self) { _ in
            await Task.yield()
            return Session()
        }.inScope(.weak)
        container.register(Cache.self) { r in Cache(session: try await r.resolve(Session.self)) }.inScope(.container)
        do {
            try await container.verifyAsync()
            Issue.record("verifyAsync() passed")
        } catch {
            #expect(error.lifetimeProblems.map(\.rule) == [.singletonKeepsWeak])
        }
    }

    @Test("Found after the app has resolved the singleton too: a dry run makes every instance")
    func afterResolve() throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        container.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        let cache = try container.resolve(Cache.self)
        #expect(lifetimeProblems(container).map(\.rule) == [.singletonKeepsWeak])
        #expect(container.dependencyGraph().edges.count == 1)
        // And the kept instance is still the one the app got.
        #expect(try container.resolve(Cache.self) === cache)
    }

    @Test("Through a nested top-level resolve (a factory resolving from the container itself)")
    func nestedTopLevel() {
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        container.register(Cache.self) { [unowned container] _ in Cache(session: try container.resolve(Session.self)) }
            .inScope(.container)
        #expect(lifetimeProblems(container).map(\.rule) == [.singletonKeepsWeak])
        #expect(container.dependencyGraph().edges.count == 1)
    }

    @Test("A child overriding what a parent's singleton needs: the parent's registration is checked")
    func childOverride() {
        // The parent's singleton keeps the parent's .weak session, whatever the child registers.
        let parent = Container()
        parent.register(Session.self) { _ in Session() }.inScope(.weak)
        parent.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        let child = Container(parent: parent)
        child.register(Session.self) { _ in Session() }.inScope(.container)
        let problems = lifetimeProblems(child)
        #expect(problems.map(\.rule) == [.singletonKeepsWeak])
        #expect(
            problems.first.map { $0.dependency.location }
                == parent.localRegistrations.first { $0.hasPrefix("Session") }.map {
                    String($0.split(separator: " at ").last!)
                })
        // And the other way round: no problem where the parent's own registration fits.
        let parent2 = Container()
        parent2.register(Session.self) { _ in Session() }.inScope(.container)
        parent2.register(Cache.self) { r in Cache(session: try r.resolve(Session.self)) }.inScope(.container)
        let child2 = Container(parent: parent2)
        child2.register(Session.self) { _ in Session() }.inScope(.weak)
        #expect(lifetimeProblems(child2).isEmpty)
    }

    @Test("verifyAsync() checks a main-actor registration's dependencies, after its hop")
    func mainActorRules() async {
        let container = Container()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        container.register(Cache.self) { @MainActor r in Cache(session: try r.resolve(Session.self)) }
            .inScope(.container)
        do {
            try await container.verifyAsync()
            Issue.record("verifyAsync() passed")
        } catch {
            #expect(error.lifetimeProblems.map(\.rule) == [.singletonKeepsWeak])
        }
    }

    @Test(
        "A dry run's findings are fixed when it returns: a resolve a factory started and left running adds none later",
        .timeLimit(.minutes(10)))
    func dryRunEndsItsFindings() async {
        final class Starter: Sendable {}
        let container = Container()
        let (started, startedNow) = AsyncStream<Void>.makeStream()
        let (released, release) = AsyncStream<Void>.makeStream()
        let (resolved, resolvedNow) = AsyncStream<Void>.makeStream()
        container.register(Session.self) { _ in Session() }.inScope(.weak)
        // Takes an argument, so the dry run skips it; resolved from a task Starter's factory
        // starts, it inherits the dry run, and resolves a .weak service once the dry run is over.
        container.register(Cache.self) { (r: AsyncResolution, _: Int) async throws in
            startedNow.yield()
            for await _ in released { break }
            defer { resolvedNow.yield() }
            return Cache(session: try await r.resolve(Session.self))
        }
        .inScope(.container)
        container.register(Starter.self) { (_: AsyncResolution) async in
            Task { _ = try? await container.resolveAsync(Cache.self, arguments: 1) }
            for await _ in started { break }
            return Starter()
        }
        let run = await container.dryRunAsync()
        let found = (run.lifetimeProblems.count, run.dependencies.count)
        release.yield()
        for await _ in resolved { break }
        #expect(run.lifetimeProblems.count == found.0)
        #expect(run.dependencies.count == found.1)
    }
}

extension Container {
    fileprivate var lifetimeSession: Registered<ContainerLifetimeTests.Session> {
        self { _ in ContainerLifetimeTests.Session() }.inScope(.container)
    }
    fileprivate var lifetimeCache: Registered<ContainerLifetimeTests.Cache> {
        self { r in ContainerLifetimeTests.Cache(session: try r.lifetimeSession()) }.inScope(.container)
    }
    fileprivate var lifetimePromisedSession: Registered<ContainerLifetimeTests.Session> { promised() }
    fileprivate var lifetimePromisingCache: Registered<ContainerLifetimeTests.Cache> {
        self { r in ContainerLifetimeTests.Cache(session: try r.lifetimePromisedSession()) }.inScope(.container)
    }
}
