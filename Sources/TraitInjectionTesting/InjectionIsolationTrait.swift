public import Testing
public import TraitInjection

/// A Swift Testing trait that gives a test (or each test of a suite) its own
/// `Container.shared` and its own injector defaults, for its duration.
///
/// Tests run in parallel. Without this trait they share `Container.shared` and every
/// `InjectorDefault`, so one test's registrations and defaults leak into
/// another's. Under it, each test case runs in a task-local scope of its own:
///
/// - `Container.shared` is a new container whose parent is the enclosing one (the suite's, or the
///   process-wide container), so the app's registrations are still there, and what the test
///   registers, in the trait or in its body, is seen by this test only;
/// - setting an injector default (`PetInjector.defaultPet = …`) changes it for this test only.
///
/// ```swift
/// @Test(.container { $0.register(RestaurantLister.self) { _ in StubLister() } })
/// func listsTheStubbedRestaurants() {
///     #expect(RestaurantListViewController().restaurantCount == 3)
/// }
///
/// @Test(.injectorDefault(PetInjector.pet, Pet(name: "Tom", species: "Cat")))
/// func catsByDefault() {
///     #expect(Person(name: "Jen").pet.species == "Cat")
/// }
/// ```
///
/// On a suite, the trait applies to each of its tests separately (it is recursive), and traits
/// nest: a test's container is a child of its suite's.
///
/// ```swift
/// @Suite(.container { $0.register(Clock.self) { _ in FixedClock() } })
/// struct CheckoutTests { … }
/// ```
public struct InjectionIsolationTrait: TestTrait, SuiteTrait, TestScoping {
    let inheritsRegistrations: Bool
    let register: @Sendable (Container) throws -> Void
    let setDefaults: @Sendable () -> Void

    /// Applied to each test of a suite, not once around the suite, so that every test case gets
    /// its own container and defaults.
    public var isRecursive: Bool { true }

    /// Runs the test with its own shared container and injector defaults.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // Its own declared defaults too: a declared service first used in the test keeps its
        // instances in the test's container, not in the shared one.
        let container =
            inheritsRegistrations ? Container(parent: .shared, keepingDeclaredDefaults: true) : Container()
        try await withIsolatedInjectorDefaults {
            setDefaults()
            try register(container)
            try await Container.withShared(container) {
                try await function()
            }
        }
    }
}

extension Trait where Self == InjectionIsolationTrait {
    /// Gives the test its own `Container.shared` (a child of the enclosing
    /// one) and its own injector defaults.
    ///
    /// ```swift
    /// @Test(.container) func registersItsOwnServices() {
    ///     Container.shared.register(Int.self) { _ in 42 }   // seen by this test only
    /// }
    /// ```
    public static var container: Self {
        container { _ in }
    }

    /// Gives the test its own `Container.shared`, set up by `register`, and its
    /// own injector defaults.
    ///
    /// ```swift
    /// @Test(.container { $0.register(RestaurantLister.self) { _ in StubLister() } })
    /// func listsTheStubbedRestaurants() { … }
    /// ```
    ///
    /// - Parameters:
    ///   - inheritingRegistrations: Whether the test's container falls back to the enclosing
    ///     shared container's registrations (the default), or starts empty, so that anything the
    ///     test did not register fails to resolve.
    ///   - register: Registers the test's services in its container, before the test runs.
    public static func container(
        inheritingRegistrations: Bool = true,
        _ register: @escaping @Sendable (Container) throws -> Void
    ) -> Self {
        Self(inheritsRegistrations: inheritingRegistrations, register: register, setDefaults: {})
    }

    /// Gives the test `value` as the injector default `injectorDefault`, its own shared container
    /// and its own copy of every other injector default.
    ///
    /// ```swift
    /// @Test(.injectorDefault(PetInjector.pet, Pet(name: "Tom", species: "Cat")))
    /// func catsByDefault() { … }
    /// ```
    ///
    /// Unlike `InjectorDefault.withValue(_:operation:)`, the test may set the
    /// default again; that too is seen by this test only.
    public static func injectorDefault<Value>(_ injectorDefault: InjectorDefault<Value>, _ value: Value) -> Self {
        Self(inheritsRegistrations: true, register: { _ in }) {
            injectorDefault.value = value
        }
    }
}
