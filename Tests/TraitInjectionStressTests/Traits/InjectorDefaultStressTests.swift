import Testing
import TraitInjection

@Suite("InjectorDefault: concurrency stress")
struct InjectorDefaultStressTests {
    @Test("Concurrent writers and readers always see one of the written values")
    func concurrentAccess() async {
        let injected = InjectorDefault(0)
        await withTaskGroup(of: Void.self) { group in
            for writer in 1...8 {
                group.addTask {
                    for _ in 0..<1_000 {
                        injected.value = writer
                        #expect((0...8).contains(injected.value))
                    }
                }
            }
        }
        #expect((1...8).contains(injected.value))
    }
}
