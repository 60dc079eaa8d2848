import TestFixtures
import Testing
import TraitInjection
import TraitInjectionTesting

/// Not serialized: each test overrides the same injector default its own way, in parallel. The
/// suite as a whole does not run beside other suites that count the traits it creates.
@Suite("Per-test injector defaults", .traitStoreExclusive)
struct InjectorDefaultIsolationTests {
    @Test(
        "64 parallel tests each set the same injector default and see only their own",
        .container,
        arguments: 0..<64
    )
    func eachSeesItsOwnDefault(number: Int) async throws {
        SalutationInjector.salutation.value = "Hello \(number)"
        for _ in 0..<5 {
            try await pause()
            #expect(SalutationInjector.salutation.value == "Hello \(number)")
        }
        #expect(Letter().salutation == "Hello \(number)")
    }

    @Test("The trait overrides a default", .injectorDefault(SalutationInjector.salutation, "Bonjour"))
    func overriddenByTheTrait() async throws {
        try await pause()
        #expect(Letter().salutation == "Bonjour")
        SalutationInjector.salutation.value = "Salut"  // still this test's own
        #expect(Letter().salutation == "Salut")
    }

    @Test("Another test overrides it differently", .injectorDefault(SalutationInjector.salutation, "Hola"))
    func overriddenDifferently() async throws {
        try await pause()
        #expect(Letter().salutation == "Hola")
    }

    @Test("Child tasks of the test see its defaults", .injectorDefault(SalutationInjector.salutation, "Ciao"))
    func childTasks() async {
        let seen = await withTaskGroup(of: String.self) { group in
            for _ in 0..<4 { group.addTask { SalutationInjector.salutation.value } }
            return await group.reduce(into: Set()) { $0.insert($1) }
        }
        #expect(seen == ["Ciao"])
    }

    @Test("withValue inside an isolated test still wins for its operation", .container)
    func withValueInside() {
        SalutationInjector.salutation.value = "Hi"
        SalutationInjector.salutation.withValue("Hey") {
            #expect(SalutationInjector.salutation.value == "Hey")
        }
        #expect(SalutationInjector.salutation.value == "Hi")
    }

    @Test("A test without the trait sees the shared default throughout")
    func sharedDefaultIsUntouched() async throws {
        for _ in 0..<20 {
            try await pause()
            #expect(SalutationInjector.salutation.value == "Hello")
        }
    }
}
