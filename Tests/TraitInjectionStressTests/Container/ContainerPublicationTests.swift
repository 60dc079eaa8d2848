import Dispatch
import Synchronization
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

/// A shared service completed by `initCompleted`; `back` is written before it is published.
final class Completed: @unchecked Sendable {
    var back: Service?
}

/// A service with an `@Inject` property, kept in the `.container` scope.
final class InjectedHolder: @unchecked Sendable {
    @Inject var dependency: Service
}

/// Records the order in which closures ran.
final class Log: @unchecked Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

@Suite("Container: a kept instance is published only once its resolve has succeeded")
struct ContainerPublicationStressTests {
    @Test(
        "Stress: another thread gets a shared instance only after its initCompleted has finished",
        arguments: [Scope<Completed>.container, .weak]
    )
    func noHalfBuiltInstance(scope: Scope<Completed>) throws {
        for _ in 0..<20 {
            let container = Container()
            let completing = DispatchSemaphore(value: 0)
            container.register(Service.self) { _ in Service(number: 1) }.inScope(.container)
            container.register(Completed.self) { _ in Completed() }
                .inScope(scope)
                .initCompleted { r, completed in
                    completing.signal()
                    usleepCompat(2_000)
                    completed.back = try r.resolve(Service.self)
                }
            let group = DispatchGroup()
            let first = Mutex<Completed?>(nil)
            DispatchQueue.global().async(group: group) {
                first.withLock { $0 = try? container.resolve(Completed.self) }
            }
            completing.wait()
            // The first resolve is inside initCompleted now: this one must wait for it.
            let second = try container.resolve(Completed.self)
            #expect(second.back?.number == 1)
            group.wait()
            // Held by both, so `.weak` shares it too.
            #expect(first.withLock { $0 } === second)
        }
    }

    @Test("Stress: an @Inject property of a shared instance is filled in by its container before others see it")
    func injectedBeforePublication() throws {
        let container = Container()
        let decoy = Container()
        decoy.register(Service.self) { _ in Service(number: 99) }
        let injecting = DispatchSemaphore(value: 0)
        container.register(Service.self) { _ in
            injecting.signal()
            usleepCompat(2_000)
            return Service(number: 1)
        }
        container.register(InjectedHolder.self) { _ in InjectedHolder() }.inScope(.container)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { _ = try? container.resolve(InjectedHolder.self) }
        injecting.wait()
        let holder = try container.resolve(InjectedHolder.self)
        // Read under another shared container: it must already hold the container's service.
        #expect(Container.withShared(decoy) { holder.dependency.number } == 1)
        group.wait()
    }

    @Test("An initCompleted that throws leaves nothing cached: the next resolve starts over")
    func failedCompletionCachesNothing() throws {
        let container = Container()
        let creations = Counter()
        let failures = Counter()
        container.register(Completed.self) { _ in
            creations.increment()
            return Completed()
        }
        .inScope(.container)
        .initCompleted { _, _ in
            if failures.increment() == 1 { throw Failure() }
        }
        #expect(throws: ResolutionError.self) { try container.resolve(Completed.self) }
        let first = try container.resolve(Completed.self)
        #expect(creations.count == 2)
        #expect(try container.resolve(Completed.self) === first)
    }

    @Test("A sibling's failure drops the singletons the resolve created")
    func siblingFailureCachesNothing() throws {
        let container = Container()
        let creations = Counter()
        let shouldFail = Atomic<Bool>(true)
        container.register(Service.self) { _ in Service(number: creations.increment()) }.inScope(.container)
        container.register(Int.self) { _ in
            if shouldFail.load(ordering: .relaxed) { throw Failure() }
            return 1
        }
        container.register(String.self) { r in "\(try r.resolve(Service.self).number) \(try r.resolve(Int.self))" }
        #expect(throws: ResolutionError.self) { try container.resolve(String.self) }
        shouldFail.store(false, ordering: .relaxed)
        #expect(try container.resolve(String.self) == "2 1")
        #expect(try container.resolve(Service.self).number == 2)
    }

    @Test("A failed auto-injection drops the instance: it is not kept")
    func failedInjectionCachesNothing() throws {
        let container = Container()
        let creations = Counter()
        container.register(InjectedHolder.self) { _ in
            creations.increment()
            return InjectedHolder()
        }
        .inScope(.container)
        #expect(throws: ResolutionError.self) { try container.resolve(InjectedHolder.self) }
        container.register(Service.self) { _ in Service(number: 4) }
        #expect(try container.resolve(InjectedHolder.self).dependency.number == 4)
        #expect(creations.count == 2)
    }

    @Test(
        "A failed resolve leaks nothing: the container and its instances go when dropped",
        arguments: ["factory", "completion", "injection", "limit", "verify"]
    )
    func failedResolveLeaksNothing(failure: String) throws {
        weak var weakContainer: Container?
        weak var weakInstance: Completed?
        do {
            let container = Container()
            weakContainer = container
            let made = Mutex<Completed?>(nil)
            container.register(Completed.self) { _ in
                let completed = Completed()
                made.withLock { $0 = completed }
                if failure == "factory" { throw Failure() }
                return completed
            }
            .initCompleted { r, _ in
                switch failure {
                case "completion": throw Failure()
                case "limit": _ = try r.resolve(Completed.self, name: "again")
                default: break
                }
            }
            // A transient pair whose completions create each other without end.
            container.register(Completed.self, name: "again") { _ in Completed() }.inScope(.transient)
                .initCompleted { r, _ in _ = try r.resolve(Completed.self, name: "more") }
            container.register(Completed.self, name: "more") { _ in Completed() }.inScope(.transient)
                .initCompleted { r, _ in _ = try r.resolve(Completed.self, name: "again") }
            container.register(InjectedHolder.self) { _ in InjectedHolder() }
            switch failure {
            case "injection":
                #expect(throws: ResolutionError.self) { try container.resolve(InjectedHolder.self) }
            case "verify":
                #expect(throws: VerificationReport.self) { try container.verify() }
            default:
                #expect(throws: ResolutionError.self) { try container.resolve(Completed.self) }
            }
            weakInstance = made.withLock { $0 }
        }
        #expect(weakContainer == nil)
        #expect(weakInstance == nil)
    }

    @Test("The completion limit names the service whose closures keep creating instances")
    func completionLimitNamesService() throws {
        let container = Container()
        container.register(Completed.self, name: "again") { _ in Completed() }.inScope(.transient)
            .initCompleted { r, _ in _ = try r.resolve(Completed.self, name: "more") }
        container.register(Completed.self, name: "more") { _ in Completed() }.inScope(.transient)
            .initCompleted { r, _ in _ = try r.resolve(Completed.self, name: "again") }
        let error = try #require(throws: ResolutionError.self) { try container.resolve(Completed.self, name: "again") }
        #expect(error.service.hasPrefix("Completed (name: "))
        #expect(error.description.hasPrefix("The factory of Completed (name: "))
        #expect(error.description.contains("more than 10000 initCompleted closures"))
    }

    @Test("Several initCompleted closures all run, in the order they were added")
    func completionsRunInOrder() throws {
        let container = Container()
        let log = Log()
        container.register(Completed.self) { _ in Completed() }
            .initCompleted { _, _ in log.append("first") }
            .initCompleted { _, _ in log.append("second") }
            .initCompleted { _, _ in log.append("third") }
        _ = try container.resolve(Completed.self)
        #expect(log.all == ["first", "second", "third"])
    }

    @Test("An instance handed over with register(instance:) is not reflected or injected")
    func registeredInstanceIsNotInjected() throws {
        let container = Container()
        let holder = InjectedHolder()
        // Nothing is registered for its @Inject property: injecting it would fail.
        container.register(InjectedHolder.self, instance: holder)
        #expect(try container.resolve(InjectedHolder.self) === holder)
        #expect(throws: InjectionError.self) { try holder.$dependency.resolve() }
    }

    @Test("A reset while a singleton is being created: the next resolve creates a new one")
    func resetWhileCreating() throws {
        let container = Container()
        let creations = Counter()
        container.register(Service.self) { _ in
            let number = creations.increment()
            if number == 1 { container.resetScopedInstances() }
            return Service(number: number)
        }
        .inScope(.container)
        #expect(try container.resolve(Service.self).number == 1)
        #expect(try container.resolve(Service.self).number == 2)
        #expect(try container.resolve(Service.self).number == 2)
    }

    @Test("A parent's singleton, first resolved through a child, is built from the parent's registrations")
    func parentSingletonBuiltFromParent() throws {
        let parent = Container()
        parent.register(Service.self) { _ in Service(number: 1) }
        parent.register(Pair.self) { r in Pair(try r.resolve(Service.self)) }.inScope(.container)
        let child = Container(parent: parent)
        child.register(Service.self) { _ in Service(number: 2) }  // a test's stub
        #expect(try child.resolve(Pair.self).service.number == 1)
        #expect(try parent.resolve(Pair.self) === child.resolve(Pair.self))
        #expect(try child.resolve(Service.self).number == 2)
    }

    final class Pair: Sendable {
        let service: Service
        init(_ service: Service) { self.service = service }
    }

    @Test("Weak scope shares a protocol-typed object while it is held")
    func weakProtocolTyped() throws {
        let container = Container()
        container.register((any Animal).self) { _ in Cat(name: "Mimi") }.inScope(.weak)
        let held = try container.resolve((any Animal).self)
        #expect(try container.resolve((any Animal).self) === held)
    }

    @Test("Resolving T? gives the registered T")
    func optionalResolvesWrapped() throws {
        let container = Container()
        container.register(Service.self) { _ in Service(number: 8) }
        container.register(Service.self, name: "named") { _ in Service(number: 9) }
        let optional: Service? = try container.resolve(Service?.self)
        #expect(optional?.number == 8)
        #expect(try container.resolve(Service?.self, name: "named")?.number == 9)
        container.register(String.self) { r in "\(try r.resolve(Service?.self)?.number ?? 0)" }
        #expect(try container.resolve(String.self) == "8")
        #expect(try container.resolve(Int?.self) == nil)  // Not registered: nil (ContainerOptionalTests).
    }
}
