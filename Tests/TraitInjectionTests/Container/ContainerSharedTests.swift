import TestFixtures
import Testing
import TraitInjection

@Suite("Container.shared: one process-wide container, overridable per task")
struct ContainerSharedTests {
    @Test("Outside withShared, every access returns the one process-wide container")
    func processWide() async {
        let shared = Container.shared
        #expect(Container.shared === shared)
        #expect(await Task.detached { Container.shared }.value === shared)
    }

    @Test("withShared sets the shared container for the operation, its child tasks, and no one else")
    func taskLocal() async {
        let processWide = Container.shared
        let container = Container()
        await Container.withShared(container) {
            #expect(Container.shared === container)
            let child = await withTaskGroup(of: Container.self) { group in
                group.addTask { Container.shared }
                return await group.next()!
            }
            #expect(child === container)
            #expect(await Task.detached { Container.shared }.value === processWide)
        }
        #expect(Container.shared === processWide)
    }

    @Test("withShared nests, synchronously too, and returns the operation's result")
    func nests() {
        let outer = Container()
        let inner = Container()
        let result = Container.withShared(outer) {
            Container.withShared(inner) { #expect(Container.shared === inner) }
            return Container.shared === outer
        }
        #expect(result)
    }
}
