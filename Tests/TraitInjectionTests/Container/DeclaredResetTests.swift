import Synchronization
import TestFixtures
import Testing
import TraitInjectionDiagnostics

@testable import TraitInjection

/// What the services these tests declare make.
final class ResetStore: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

/// What an async factory made, keeping what the factory read through its resolver.
final class HoldsDependency: @unchecked Sendable {
    var dependency: DeclaredDependency<Container, ResetStore>?
}

extension Container {
    /// A default whose factory names the container it was read on, so it captures `self`.
    var resetStore: Registered<ResetStore> { self { _ in ResetStore("\(ObjectIdentifier(self))") } }
    var holdsDependency: Registered<HoldsDependency> {
        self { r async in
            let holder = HoldsDependency()
            holder.dependency = r.resetStore
            return holder
        }.inScope(.container)
    }
    var replacedStore: Registered<ResetStore> { self { _ in ResetStore("default") }.inScope(.container) }
}

@Suite("Container: what a reset leaves")
struct DeclaredResetTests {
    @Test(
        "A child that overrode and reset a service whose default captures self is freed: its entry holds nothing of the declaration"
    )
    func childIsFreed() throws {
        let root = Container()
        weak var weakChild: Container?
        do {
            let child = Container(parent: root)
            weakChild = child
            child.resetStore.register { _ in ResetStore("override") }
            #expect(try child.resetStore().label == "override")
            child.resetStore.reset()
            // The root's default, filed from the root: a default first filed from the child
            // would be read on the child, and its factory would capture the child (documented).
            #expect(try root.resetStore().label == "\(ObjectIdentifier(root))")
            #expect(try child.resetStore().label == "\(ObjectIdentifier(root))")
        }
        #expect(weakChild == nil)
    }

    @Test("verify() passes over the stand-in of a key a reset unregistered as verify listed it")
    func verifyPassesOverAStandIn() throws {
        let container = Container()
        container.resetStore.register { _ in ResetStore("override") }
        let key = container.resetStore.declaration.key
        let entry = try #require(container.registry.entry(for: key))
        container.resetStore.reset()
        #expect(entry.read().binding.isStandIn)
        // As a verify that listed the entry just before the reset sees it: filed, holding the
        // stand-in.
        entry.file(true)
        defer { entry.file(false) }
        #expect(container.visibleBindings().allSatisfy { !$0.isStandIn })
        #expect(throws: Never.self) { try container.verify() }
    }

    @Test("What an async factory read through its resolver, kept by its instance, does not keep the container")
    func asyncDependencyKeepsNoContainer() async throws {
        weak var weakContainer: Container?
        do {
            let container = Container()
            weakContainer = container
            let holder = try await container.holdsDependency.resolveAsync()
            #expect(holder.dependency != nil)
        }
        #expect(weakContainer == nil)
    }

    @Test(
        "An async resolve waiting for a singleton whose registration is replaced by an async one resolves, without needing a synchronous resolve"
    )
    func waiterOfAReplacedRegistration() async throws {
        let container = Container()
        let (entered, release) = (Gate(), Gate())
        container.replacedStore.register { _ in
            entered.open()
            _ = waitUntil { release.opened }
            return ResetStore("sync")
        }
        let maker = OwnThread { _ = try? container.replacedStore() }
        await entered.wait()
        let waiter = Task { try await container.replacedStore.resolveAsync() }
        for _ in 0..<100 { await Task.yield() }  // Most often, the waiter waits by now.
        container.replacedStore.register { _ async in ResetStore("async") }
        release.open()
        await maker.join()
        let label = try await waiter.value.label
        #expect(label == "sync" || label == "async")
    }

}
