/// A default value held by an injector: readable and settable from any thread, and overridable
/// for the duration of an operation in the current task (tests).
///
/// An injector keeps one per default and exposes it as a static property:
///
/// ```swift
/// struct PetInjector {
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
/// A default can also come from the container, resolved from ``Container/shared`` each time it
/// is read, until it is set: `InjectorDefault<Vet>(.resolved())`; see ``Resolved``.
///
/// > Important: A default is read when an instance first reads its trait, and then stored for
/// > that instance. Changing the default affects only instances that have not read the trait yet.
public final class InjectorDefault<Value: Sendable>: Sendable {
    /// Where the shared default comes from.
    private enum Source {
        case value(Value)
        case resolved(InjectionRequest<Value>)
    }

    private let storage: Locked<Source>

    /// Creates a default holding `value`.
    public init(_ value: Value) {
        storage = Locked(.value(value))
    }

    /// Creates a default resolved from ``Container/shared`` each time it is read, until it is set.
    ///
    /// ```swift
    /// struct VetInjector {
    ///     static let vet = InjectorDefault<Vet>(.resolved())
    /// }
    /// Container.shared.register(Vet.self) { _ in Vet(name: "Dr. Herriot") }
    /// ```
    ///
    /// In a `.traits` file: `trait vet: Vet = .resolved()`.
    public init(_ resolved: Resolved) {
        storage = Locked(.resolved(resolved.request))
    }

    /// The current default: this task's override if there is one, otherwise the shared value.
    ///
    /// Setting it changes the shared value, for every thread; within an isolated test scope (the
    /// `TraitInjectionTesting` traits) it changes the test's own value instead.
    ///
    /// A default made with `.resolved()` that cannot be resolved stops the program with
    /// the ``ResolutionError`` and where the default was declared.
    public var value: Value {
        get {
            if let override = InjectorOverrides.current.value(for: ObjectIdentifier(self)) {
                return override as! Value
            }
            switch storage.withLock({ $0 }) {
            case .value(let value):
                return value
            case .resolved(let request):
                // The factory is user code: it runs here, after the lock.
                do {
                    return try request.resolve(from: Container.shared)
                } catch {
                    request.stop(with: error)
                }
            }
        }
        set {
            if let isolated = InjectorOverrides.current.isolated {
                isolated.set(newValue, for: ObjectIdentifier(self))
                return
            }
            var replaced = Source.value(newValue)
            storage.withLock { swap(&$0, &replaced) }
            // `replaced` now holds the old default and is released here, outside the lock.
            withExtendedLifetime(replaced) {}
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

    private func overriding(with value: Value) -> InjectorOverrides {
        var overrides = InjectorOverrides.current
        overrides.values[ObjectIdentifier(self)] = value
        return overrides
    }
}

extension InjectorDefault {
    /// A default that comes from the container: `InjectorDefault<Vet>(.resolved())`.
    ///
    /// Each read of the default resolves the service from ``Container/shared`` (the registration's
    /// ``Scope`` decides whether that is a new instance). A trait stores the value on an instance's
    /// first read, as with any default; a test that gives itself its own shared container gives its
    /// instances its own services.
    public struct Resolved: Sendable {
        let request: InjectionRequest<Value>

        /// The registration of `Value` under `name`, with runtime `arguments`.
        ///
        /// - Parameters:
        ///   - name: The registration's name, or `nil` for the unnamed one.
        ///   - arguments: Runtime arguments for the factory; their types are part of the key.
        ///   - file: Where the default is declared, for errors; leave the default.
        ///   - line: Where the default is declared, for errors; leave the default.
        public static func resolved<each Argument: Sendable>(
            name: String? = nil,
            arguments: repeat each Argument,
            file: StaticString = #fileID,
            line: UInt = #line
        ) -> Resolved {
            Resolved(
                request: InjectionRequest(
                    declaration: "Injector default",
                    name: name,
                    arguments: repeat each arguments,
                    file: file,
                    line: line
                )
            )
        }
    }
}
