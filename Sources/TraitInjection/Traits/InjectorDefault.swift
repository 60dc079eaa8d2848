/// A default value held by an injector: readable and settable from any thread, and overridable
/// for the duration of an operation in the current task (tests).
///
/// An injector keeps one per default and exposes it as a static property:
///
/// ```swift
/// enum PetInjector {
///     static let pet = InjectorDefault(Pet(name: "Rover", species: "Dog"))
///
///     static var defaultPet: Pet {
///         get { pet.value }
///         set { pet.value = newValue }
///     }
/// }
///
/// PetInjector.defaultPet = Pet(name: "Rex", species: "Dog")   // from any thread
///
/// PetInjector.pet.withValue(Pet(name: "Tom", species: "Cat")) {
///     // Only this task (and its child tasks) sees Tom as the default here.
/// }
/// ```
///
/// > Important: A default is read when an instance first reads its trait, and then stored for
/// > that instance. Changing the default affects only instances that have not read the trait yet.
public final class InjectorDefault<Value: Sendable>: Sendable {
    private let storage: Locked<Value>

    /// Creates a default holding `value`.
    public init(_ value: Value) {
        storage = Locked.make(value)
    }

    /// The current default: this task's override if there is one, otherwise the shared value.
    ///
    /// Setting it changes the shared value, for every thread.
    public var value: Value {
        get {
            if let override = InjectorOverrides.current[ObjectIdentifier(self)] {
                return override as! Value
            }
            return storage.withLock { $0 }
        }
        set {
            var replaced = newValue
            storage.withLock { swap(&$0, &replaced) }
            // `replaced` now holds the old default and is released here, outside the lock.
        }
    }

    /// Runs `operation` with `value` as this default for the current task and its child tasks.
    ///
    /// Other tasks, including tests running in parallel, keep seeing their own default.
    ///
    /// - Returns: What `operation` returns.
    public func withValue<Result>(_ value: Value, operation: () throws -> Result) rethrows -> Result {
        try InjectorOverrides.$current.withValue(overriding(with: value), operation: operation)
    }

    /// Runs the asynchronous `operation` with `value` as this default for the current task and its
    /// child tasks.
    ///
    /// - Returns: What `operation` returns.
    public func withValue<Result>(
        _ value: Value,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await InjectorOverrides.$current.withValue(
            overriding(with: value),
            operation: operation,
            isolation: isolation
        )
    }

    private func overriding(with value: Value) -> [ObjectIdentifier: any Sendable] {
        var overrides = InjectorOverrides.current
        overrides[ObjectIdentifier(self)] = value
        return overrides
    }
}

/// The current task's overridden injector defaults, by ``InjectorDefault`` identity.
enum InjectorOverrides {
    @TaskLocal static var current: [ObjectIdentifier: any Sendable] = [:]
}
