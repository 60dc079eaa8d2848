import Dispatch
import Synchronization
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("These tests run on Darwin and Glibc platforms.")
#endif

// Cases found by an adversarial review of the resolve core, each a regression test.

/// Holds a container weakly, for factories and deinits that use it.
final class WeakContainer: Sendable {
    weak let container: Container?
    init(_ container: Container) { self.container = container }
}

/// A `.container` singleton.
final class Logger: Sendable {}

/// Resolves the logger when it goes away (the "log on deinit" pattern).
final class LogsOnDeinit: Sendable {
    let box: WeakContainer
    init(_ box: WeakContainer) { self.box = box }
    deinit { _ = try? box.container?.resolve(Logger.self) }
}

final class Root: Sendable {}

/// Whether `body` finishes within `seconds` on a thread of its own (a hang is a failure, not a
/// stuck test run).
func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

final class HolderWithCompletion: @unchecked Sendable {
    @Inject var dependency: Service
    var completed = false
}

final class Name: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

final class NameUser: Sendable {
    let name: Name
    init(_ name: Name) { self.name = name }
}

final class ParentSingleton: Sendable {
    let user: NameUser
    init(_ user: NameUser) { self.user = user }
}

final class EndA: @unchecked Sendable { @Inject var b: EndB }
final class EndB: @unchecked Sendable { @Inject var a: EndA }
final class CompletedA: @unchecked Sendable { var b: CompletedB? }
final class CompletedB: @unchecked Sendable { var a: CompletedA? }

/// A runtime argument that is not `Hashable`.
struct Opaque {
    let value: Int
}

@Suite("Container: edge cases of publication, failure, retry and depth")
struct ContainerEdgeCaseStressTests {
    @Test(
        "A singleton resolved from the deinit of an instance the container drops is published, not stuck",
        arguments: ["weak", "graph", "abandoned"]
    )
    func resolveFromDeinit(kind: String) throws {
        let container = Container()
        let box = WeakContainer(container)
        container.register(Logger.self) { _ in Logger() }.inScope(.container)
        switch kind {
        case "weak": container.register(LogsOnDeinit.self) { _ in LogsOnDeinit(box) }.inScope(.weak)
        case "graph": container.register(LogsOnDeinit.self) { _ in LogsOnDeinit(box) }
        default:
            container.register(LogsOnDeinit.self) { _ in LogsOnDeinit(box) }.inScope(.container)
                .initCompleted { _, _ in throw Failure() }
        }
        container.register(Root.self) { r in
            _ = try r.resolve(LogsOnDeinit.self)
            return Root()
        }
        _ = try? container.resolve(Root.self)
        // On another thread, and on this one.
        #expect(finishes(within: 5) { _ = try? container.resolve(Logger.self) })
        #expect(try container.resolve(Logger.self) === container.resolve(Logger.self))
    }

    @Test("A singleton made from a deinit goes with its container")
    func resolveFromDeinitLeaksNothing() {
        final class Probe: @unchecked Sendable { weak var logger: Logger? }
        let probe = Probe()
        do {
            let container = Container()
            let box = WeakContainer(container)
            container.register(Logger.self) { _ in
                let logger = Logger()
                probe.logger = logger
                return logger
            }
            .inScope(.container)
            container.register(LogsOnDeinit.self) { _ in LogsOnDeinit(box) }
            container.register(Root.self) { r in
                _ = try r.resolve(LogsOnDeinit.self)
                return Root()
            }
            _ = try? container.resolve(Root.self)
        }
        #expect(probe.logger == nil)
    }

    @Test("A nested top-level resolve never gets a singleton whose initCompleted has not run")
    func nestedResolveOfIncompleteSingleton() throws {
        let container = Container()
        let box = WeakContainer(container)
        container.register(Service.self) { _ in Service(number: 1) }
        container.register(HolderWithCompletion.self) { _ in HolderWithCompletion() }
            .inScope(.container)
            .initCompleted { _, holder in holder.completed = true }
        let nested = Mutex<ResolutionError?>(nil)
        container.register(Root.self) { r in
            _ = try r.resolve(HolderWithCompletion.self)
            do throws(ResolutionError) {
                _ = try box.container?.resolve(HolderWithCompletion.self)
            } catch {
                nested.withLock { $0 = error }
            }
            return Root()
        }
        _ = try container.resolve(Root.self)
        #expect(nested.withLock { $0 }?.kind == .cycle)
        let holder = try container.resolve(HolderWithCompletion.self)
        #expect(holder.completed)
        #expect(holder.dependency.number == 1)
    }

    @Test("A parent's singleton built inside a child's resolve gets the parent's graph instances")
    func parentSingletonDoesNotReuseChildGraph() throws {
        let parent = Container()
        parent.register(Name.self) { _ in Name("parent") }
        parent.register(NameUser.self) { r in NameUser(try r.resolve(Name.self)) }
        parent.register(ParentSingleton.self) { r in ParentSingleton(try r.resolve(NameUser.self)) }
            .inScope(.container)
        let child = Container(parent: parent)
        child.register(Name.self) { _ in Name("child") }
        child.register(Root.self) { r in
            #expect(try r.resolve(NameUser.self).name.name == "child")
            _ = try r.resolve(ParentSingleton.self)
            return Root()
        }
        _ = try child.resolve(Root.self)
        #expect(try parent.resolve(ParentSingleton.self).user.name.name == "parent")
    }

    @Test("verify() keeps no singleton, even one made by a nested resolve in a factory")
    func verifyKeepsNothingNested() throws {
        let container = Container()
        let box = WeakContainer(container)
        let made = Counter()
        container.register(Logger.self) { _ in
            made.increment()
            return Logger()
        }
        .inScope(.container)
        container.register(Root.self) { _ in
            _ = try box.container?.resolve(Logger.self)
            return Root()
        }
        try container.verify()
        let madeByVerify = made.count
        _ = try container.resolve(Logger.self)
        #expect(made.count == madeByVerify + 1)
    }

    @Test("Graph-scoped registrations with runtime arguments: one instance per distinct argument values")
    func graphByArguments() throws {
        let container = Container()
        container.register(Name.self) { (_, word: String) in Name(word) }
        container.register(NameUser.self) { r in
            let hello = try r.resolve(Name.self, arguments: "hello")
            #expect(try r.resolve(Name.self, arguments: "hello") === hello)
            return NameUser(try r.resolve(Name.self, arguments: "bye"))
        }
        #expect(try container.resolve(NameUser.self).name.name == "bye")
    }

    /// Runs `left` and `right` at once, `rounds` times, and returns the errors.
    func race(rounds: Int, _ make: () -> (@Sendable () throws -> Void, @Sendable () throws -> Void)) -> [String] {
        let errors = Mutex<[String]>([])
        for _ in 0..<rounds {
            let (left, right) = make()
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                do {
                    try (side == 0 ? left : right)()
                } catch {
                    errors.withLock { $0.append(String(describing: error)) }
                }
            }
        }
        return errors.withLock { $0 }
    }

    @Test("Stress: singletons whose @Inject properties need each other, resolved from both ends at once")
    func injectedEndsStress() {
        let errors = race(rounds: 20) {
            let container = Container()
            container.register(EndA.self) { _ in
                usleepCompat(2_000)
                return EndA()
            }
            .inScope(.container)
            container.register(EndB.self) { _ in
                usleepCompat(2_000)
                return EndB()
            }
            .inScope(.container)
            return ({ _ = try container.resolve(EndA.self) }, { _ = try container.resolve(EndB.self) })
        }
        #expect(errors.isEmpty, "\(errors.first ?? "")")
    }

    @Test("Stress: singletons completed by initCompleted closures that need each other, from both ends")
    func completedEndsStress() {
        let errors = race(rounds: 20) {
            let container = Container()
            container.register(CompletedA.self) { _ in
                usleepCompat(2_000)
                return CompletedA()
            }
            .inScope(.container)
            .initCompleted { r, a in a.b = try r.resolve(CompletedB.self) }
            container.register(CompletedB.self) { _ in
                usleepCompat(2_000)
                return CompletedB()
            }
            .inScope(.container)
            .initCompleted { r, b in b.a = try r.resolve(CompletedA.self) }
            return ({ _ = try container.resolve(CompletedA.self) }, { _ = try container.resolve(CompletedB.self) })
        }
        #expect(errors.isEmpty, "\(errors.first ?? "")")
    }

    @Test("Stress: slow singletons taken in opposite orders by two threads")
    func slowOppositeOrdersStress() {
        let errors = race(rounds: 20) {
            let container = Container()
            for name in ["A", "B"] {
                container.register(Service.self, name: name) { _ in
                    usleepCompat(2_000)
                    return Service(number: name == "A" ? 1 : 2)
                }
                .inScope(.container)
            }
            container.register(String.self, name: "AB") { r in
                "\(try r.resolve(Service.self, name: "A").number)\(try r.resolve(Service.self, name: "B").number)"
            }
            container.register(String.self, name: "BA") { r in
                "\(try r.resolve(Service.self, name: "A").number)\(try r.resolve(Service.self, name: "B").number)"
            }
            return (
                { _ = try container.resolve(String.self, name: "AB") },
                { _ = try container.resolve(String.self, name: "BA") }
            )
        }
        #expect(errors.isEmpty, "\(errors.first ?? "")")
    }

    @Test(
        "Recursions on small stacks end in .tooDeep, never a crash",
        arguments: [64 * 1024, 128 * 1024, 256 * 1024]
    )
    func smallStacks(stackSize: Int) async {
        let container = Container()
        let box = WeakContainer(container)
        // Through nested top-level resolves with growing arguments.
        container.register(Service.self) { (_, depth: Int) in
            _ = try box.container?.resolve(Service.self, arguments: depth + 1)
            return Service()
        }
        // Through a factory's resolver with arguments that are not Hashable.
        container.register(Service.self, name: "opaque") { (r, depth: Opaque) in
            _ = try r.resolve(Service.self, name: "opaque", arguments: Opaque(value: depth.value + 1))
            return Service()
        }
        let kinds = Mutex<[ResolutionError.Kind]>([])
        await onOwnThreads(stackSize: stackSize) { _ in
            for name in [nil, "opaque"] as [String?] {
                do throws(ResolutionError) {
                    if name == nil {
                        _ = try container.resolve(Service.self, arguments: 0)
                    } else {
                        _ = try container.resolve(Service.self, name: name, arguments: Opaque(value: 0))
                    }
                } catch {
                    kinds.withLock { $0.append(error.kind) }
                }
            }
        }
        #expect(kinds.withLock { $0 } == [.tooDeep, .tooDeep])
    }
}
