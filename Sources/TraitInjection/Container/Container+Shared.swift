extension Container {
    /// The container that ``Inject`` and ``WeakInject`` properties resolve from: the current
    /// task's, if an operation runs under ``withShared(_:operation:)``, otherwise one process-wide
    /// container.
    ///
    /// Register the app's services in it at start-up:
    ///
    /// ```swift
    /// Container.shared.register(RestaurantLister.self) { _ in RestaurantLister() }
    ///
    /// final class RestaurantListViewController {
    ///     @Inject private var lister: RestaurantLister
    /// }
    /// ```
    ///
    /// Tests give each test its own shared container with ``withShared(_:operation:)``, or with
    /// the `.container` trait of the `TraitInjectionTesting` product, so that tests running in
    /// parallel never see each other's registrations.
    public static var shared: Container {
        taskShared ?? processShared
    }

    /// Runs `operation` with `container` as ``shared`` for the current task and its child tasks.
    ///
    /// Other tasks keep their own shared container. A test that starts from the app's
    /// registrations and overrides one:
    ///
    /// ```swift
    /// let container = Container(parent: Container.shared)
    /// container.register(RestaurantLister.self) { _ in StubLister() }
    /// Container.withShared(container) {
    ///     #expect(RestaurantListViewController().restaurantCount == 3)
    /// }
    /// ```
    ///
    /// - Returns: What `operation` returns.
    public static func withShared<Result>(
        _ container: Container,
        operation: () throws -> Result
    ) rethrows -> Result {
        try $taskShared.withValue(container, operation: operation)
    }

    /// Runs the asynchronous `operation` with `container` as ``shared`` for the current task and
    /// its child tasks.
    ///
    /// - Returns: What `operation` returns.
    public static func withShared<Result>(
        _ container: Container,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $taskShared.withValue(container, operation: operation, isolation: isolation)
    }

    /// The current task's shared container, set by ``withShared(_:operation:)``.
    @TaskLocal static var taskShared: Container?

    /// The shared container of tasks that did not choose one.
    private static let processShared = Container()
}
