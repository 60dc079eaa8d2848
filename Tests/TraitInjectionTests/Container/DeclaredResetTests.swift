import Testing

@testable import TraitInjection

/// What the services these tests declare make.
final class ResetStore: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

extension Container {
    /// A default whose factory names the container it was read on, so it captures `self`.
    var resetStore: Registered<ResetStore> { self { _ in ResetStore("\(ObjectIdentifier(self))") } }
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
}
