import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

/// A declared view model: isolated to the main actor, so `Sendable`.
@MainActor
final class DeclaredViewModel {
    /// How many were made: main-actor state, which a factory run elsewhere could not touch.
    static var made = 0

    let service: Service
    let title: String

    init(service: Service, title: String = "Made on the main actor") {
        Self.made += 1
        self.service = service
        self.title = title
    }
}

/// A service an async factory makes from a declared main-actor one.
final class DeclaredPresenter: Sendable {
    let viewModel: DeclaredViewModel
    init(viewModel: DeclaredViewModel) { self.viewModel = viewModel }
}

extension Container {
    var declaredViewModelService: Registered<Service> { self { _ in Service() }.inScope(.container) }
    var declaredViewModel: Registered<DeclaredViewModel> {
        self { @MainActor r in DeclaredViewModel(service: try r.declaredViewModelService()) }
    }
    var declaredSharedViewModel: Registered<DeclaredViewModel> {
        self { @MainActor r in DeclaredViewModel(service: try r.declaredViewModelService()) }.inScope(.container)
    }
    var declaredTitledViewModel: RegisteredWith<String, DeclaredViewModel> {
        self { @MainActor r, title in DeclaredViewModel(service: try r.declaredViewModelService(), title: title) }
    }
    var declaredPresenter: Registered<DeclaredPresenter> {
        self { r in DeclaredPresenter(viewModel: try await r.declaredViewModel.resolveAsync()) }
    }
    /// An async default, which tests override with a main-actor factory.
    var declaredAsyncViewModel: Registered<DeclaredViewModel> {
        self { _ async in await MainActor.run { DeclaredViewModel(service: Service(), title: "async default") } }
    }
    /// A synchronous default a test run replaces with a main-actor one.
    var declaredTestViewModel: Registered<DeclaredViewModel> {
        self { _ in throw Declared.Failure() }
            .onTest { @MainActor r in DeclaredViewModel(service: try r.declaredViewModelService(), title: "test") }
    }
}

@Suite("Container: declared main-actor services")
struct DeclaredMainActorTests {
    @Test("On the main actor, a synchronous resolve runs a main-actor default, which resolves declared services")
    @MainActor
    func synchronousOnMainActor() throws {
        let container = Container()
        let viewModel = try container.declaredViewModel()
        #expect(viewModel.title == "Made on the main actor")
        #expect(viewModel.service === (try container.declaredViewModelService()))
        #expect(try container.declaredViewModel() !== viewModel)
    }

    @Test("Off the main actor, a synchronous resolve throws needsMainActor, naming the property")
    func synchronousElsewhereThrows() async {
        let container = Container()
        let error = await Task.detached {
            #expect(throws: ResolutionError.self) { try container.declaredViewModel() }
        }.value
        #expect(error?.kind == .needsMainActor)
        #expect(error?.description.contains("Container.declaredViewModel") == true)
    }

    @Test("From elsewhere, resolveAsync hops to the main actor, with arguments; async defaults depend on it")
    func asyncHops() async throws {
        let container = Container()
        let viewModel = try await Task.detached { try await container.declaredViewModel.resolveAsync() }.value
        #expect(viewModel.title == "Made on the main actor")
        let titled = try await Task.detached { try await container.declaredTitledViewModel.resolveAsync("Hi") }.value
        #expect(titled.title == "Hi")
        let presenter = try await Task.detached { try await container.declaredPresenter.resolveAsync() }.value
        #expect(presenter.viewModel.title == "Made on the main actor")
        #expect(presenter.viewModel.service === (try container.declaredViewModelService()))
    }

    @Test("A main-actor singleton is made once by racing async resolves, then handed out anywhere")
    func singletonAnywhere() async throws {
        let container = Container()
        let before = await DeclaredViewModel.made
        let all = try await withThrowingTaskGroup(of: DeclaredViewModel.self) { group in
            for _ in 0..<20 { group.addTask { try await container.declaredSharedViewModel.resolveAsync() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(all.allSatisfy { $0 === all[0] })
        let elsewhere = try await Task.detached { try container.declaredSharedViewModel() }.value
        #expect(elsewhere === all[0])
        #expect(container.declaredSharedViewModel.resolvedOrNil() === all[0])
        // Other tests make view models in parallel: this one made at least its own, once.
        #expect(await DeclaredViewModel.made - before >= 1)
    }

    @Test("A main-actor override replaces the default until reset, and is made on the main actor from elsewhere")
    func mainActorOverride() async throws {
        let container = Container()
        container.declaredViewModel.register { @MainActor r in
            DeclaredViewModel(service: try r.declaredViewModelService(), title: "Preview")
        }
        let overridden = try await Task.detached { try await container.declaredViewModel.resolveAsync() }.value
        #expect(overridden.title == "Preview")
        await MainActor.run {
            #expect((try? container.declaredViewModel())?.title == "Preview")
        }
        container.declaredViewModel.reset()
        let restored = try await Task.detached { try await container.declaredViewModel.resolveAsync() }.value
        #expect(restored.title == "Made on the main actor")
    }

    @Test(
        "An async override registered while a resolve's hop waits for the main actor is resolved, not refused (review)")
    @MainActor
    func asyncOverrideWhileHopWaits() async throws {
        let container = Container()
        _ = try container.declaredViewModel()  // the default, filed
        let task = Task.detached { try await container.declaredViewModel.resolveAsync() }
        // The main actor stays busy for a moment, so that the task's hop most likely waits for it;
        // either way the resolve returns the default or the override.
        usleepCompat(100_000)
        container.declaredViewModel.register { (_: AsyncResolution) async in
            await MainActor.run { DeclaredViewModel(service: Service(), title: "async") }
        }
        let made = try await task.value
        #expect(["Made on the main actor", "async"].contains(made.title))
        #expect(try await container.declaredViewModel.resolveAsync().title == "async")
    }

    @Test(
        "A main-actor override reset while a resolve's hop waits: the async default is resolved, not refused (review)")
    @MainActor
    func resetToAsyncDefaultWhileHopWaits() async throws {
        let container = Container()
        container.declaredAsyncViewModel.register { @MainActor _ in
            DeclaredViewModel(service: Service(), title: "override")
        }
        let task = Task.detached { try await container.declaredAsyncViewModel.resolveAsync() }
        // The main actor stays busy for a moment, so that the task's hop most likely waits for it;
        // either way the resolve returns the override or the default.
        usleepCompat(100_000)
        container.declaredAsyncViewModel.reset()
        let made = try await task.value
        #expect(["override", "async default"].contains(made.title))
        #expect(try await container.declaredAsyncViewModel.resolveAsync().title == "async default")
    }

    @Test("What a declared main-actor override implements resolves asynchronously, by the declaration's key (review)")
    func implementsResolvesAsync() async throws {
        let container = Container()
        // A registration of the same type by type, which the forward must not reach.
        container.register(DeclaredViewModel.self) { @MainActor _ in
            DeclaredViewModel(service: Service(), title: "by type")
        }
        container.declaredViewModel.register { @MainActor _ in DeclaredViewModel(service: Service(), title: "declared")
        }
        .implements((any AnyObject & Sendable).self) { $0 }
        let found = try await Task.detached { try await container.resolveAsync((any AnyObject & Sendable).self) }.value
        #expect((found as? DeclaredViewModel)?.title == "declared")
    }

    @Test("A test run's main-actor factory replaces a synchronous default")
    @MainActor
    func testContext() throws {
        #expect(RunContext.isTest)
        #expect(try Container().declaredTestViewModel().title == "test")
    }

    @Test("verify() says it leaves a declared main-actor service to verifyAsync(), which checks it; the graph names it")
    func verifies() async throws {
        let container = Container()
        let report = try container.verify(including: \Container.declaredViewModel, \Container.declaredPresenter)
        #expect(report.problems.isEmpty)
        #expect(report.skipped.contains { $0.hasPrefix("Container.declaredViewModel") && $0.contains("main actor") })
        #expect(container.dependencyGraph().nodes.contains { $0.service.contains("Container.declaredViewModel") })
        // The defaults `verify(including:)` filed, checked in full.
        let asyncReport = try await container.verifyAsync()
        #expect(asyncReport.problems.isEmpty && asyncReport.skipped.isEmpty)
    }
}
