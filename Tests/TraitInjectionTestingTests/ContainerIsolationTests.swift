import Testing
import TraitInjection
import TraitInjectionTesting

/// Not serialized: these tests run in parallel, and each must see only its own registrations.
@Suite("The .container trait: each test its own Container.shared")
struct ContainerIsolationTests {
    @Test(
        "64 parallel tests each register a different value for the same service and see only their own",
        .container,
        arguments: 0..<64
    )
    func eachSeesItsOwnRegistration(number: Int) async throws {
        Container.shared.register(Int.self) { _ in number }
        Container.shared.register(Greeting.self) { _ in Greeting("Hello \(number)") }
        for _ in 0..<5 {
            try await pause()
            #expect(try Container.shared.resolve(Int.self) == number)
        }
        #expect(Greeter().greeting.text == "Hello \(number)")
    }

    @Test(
        "32 parallel async tests: child tasks resolve async services from their test's own container",
        .container,
        arguments: 0..<32
    )
    func childTasksSeeTheTestsContainer(number: Int) async throws {
        Container.shared.register(Int.self) { _ in
            await Task.yield()
            return number
        }
        .inScope(.container)
        let seen = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await pause()
                    // Resolved in a child task: the trait's task-local container reaches it.
                    return try await Container.shared.resolveAsync(Int.self)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(seen == Array(repeating: number, count: 8))
        async let inChild = Container.shared.resolveAsync(Int.self)
        #expect(try await inChild == number)
    }

    @Test("The trait's closure registers the test's services", .container { $0.register(Int.self) { _ in -1 } })
    func registeredByTheTrait() async throws {
        try await pause()
        #expect(try Container.shared.resolve(Int.self) == -1)
    }

    @Test("Another test's closure registers another value", .container { $0.register(Int.self) { _ in -2 } })
    func registeredByAnotherTrait() async throws {
        try await pause()
        #expect(try Container.shared.resolve(Int.self) == -2)
    }

    @Test("A test without the trait sees none of them: nothing reaches the process-wide container")
    func processWideContainerIsUntouched() async throws {
        for _ in 0..<20 {
            try await pause()
            #expect(Container.shared.localRegistrations.isEmpty)
        }
    }

    @Test("The test's container falls back to the enclosing shared container's registrations")
    func inheritsRegistrations() async throws {
        let app = Container()
        app.register(Greeting.self) { _ in Greeting("from the app") }
        try await Container.withShared(app) {
            try await InjectionIsolationTrait.container { $0.register(Int.self) { _ in 1 } }
                .provideScope(for: Test.current!, testCase: Test.Case.current) { () async throws in
                    #expect(Container.shared !== app)
                    #expect(Container.shared.parent === app)
                    #expect(Greeter().greeting.text == "from the app")
                    #expect(try Container.shared.resolve(Int.self) == 1)
                }
            #expect(throws: ResolutionError.self) { try app.resolve(Int.self) }
        }
    }

    @Test("inheritingRegistrations: false starts from an empty container")
    func startsEmpty() async throws {
        let app = Container()
        app.register(Greeting.self) { _ in Greeting("from the app") }
        try await Container.withShared(app) {
            try await InjectionIsolationTrait.container(inheritingRegistrations: false) { _ in }
                .provideScope(for: Test.current!, testCase: Test.Case.current) { () async throws in
                    #expect(Container.shared.parent == nil)
                    #expect(throws: InjectionError.self) { try Greeter().$greeting.resolve() }
                }
        }
    }
}

/// A suite-level trait applies to each test separately; a test's own trait nests inside it.
@Suite(
    "The .container trait on a suite",
    .container { $0.register(String.self, name: "layer") { _ in "suite" } }
)
struct SuiteContainerIsolationTests {
    /// Runs for each test, inside its scope: registers in the test's own container.
    init() {
        Container.shared.register(Int.self) { _ in 10 }
    }

    @Test("Each test sees the suite's registrations and its own")
    func seesTheSuiteRegistration() throws {
        #expect(try Container.shared.resolve(String.self, name: "layer") == "suite")
        #expect(try Container.shared.resolve(Int.self) == 10)
    }

    @Test(
        "A test's trait overrides the suite's, in a child container",
        .container { $0.register(String.self, name: "layer") { _ in "test" } }
    )
    func testOverridesSuite() throws {
        #expect(try Container.shared.resolve(String.self, name: "layer") == "test")
        #expect(try Container.shared.parent?.resolve(String.self, name: "layer") == "suite")
    }

    @Test("Tests of the suite do not share a container", arguments: 0..<8)
    func testsDoNotShare(number: Int) async throws {
        Container.shared.register(Int.self) { _ in number }
        try await pause()
        #expect(try Container.shared.resolve(Int.self) == number)
    }
}

extension Container {
    var isolatedNumber: Registered<Int> { self { _ in -1 }.inScope(.container) }
}

@Suite("The .container trait: declared services")
struct DeclaredIsolationTests {
    @Test(
        "64 parallel tests each override the same declared service and see only their own", .container,
        arguments: 0..<64)
    func eachSeesItsOwnOverride(number: Int) async throws {
        Container.shared.isolatedNumber.register { _ in number }
        for _ in 0..<5 {
            try await pause()
            #expect(try Container.shared.isolatedNumber() == number)
        }
    }

    @Test("A test that does not override gets the default", .container)
    func defaultInATest() throws {
        #expect(try Container.shared.isolatedNumber() == -1)
    }
}
