/// The injector defaults overridden for the current task: values given to
/// ``InjectorDefault/withValue(_:operation:)``, and the innermost isolated scope (a test's own
/// defaults, from the `TraitInjectionTesting` traits).
struct InjectorOverrides: Sendable {
    /// Values from `withValue`, by ``InjectorDefault`` identity; they win over everything else.
    var values: [ObjectIdentifier: any Sendable] = [:]
    /// Where setting a default writes instead of the shared value, if anywhere.
    var isolated: IsolatedInjectorDefaults?

    @TaskLocal static var current = InjectorOverrides()

    /// The overriding value of the default identified by `id`, if any.
    func value(for id: ObjectIdentifier) -> (any Sendable)? {
        if let value = values[id] { return value }
        return isolated?.value(for: id)
    }
}

/// The injector defaults set within one isolated scope, falling back to the enclosing scope's.
final class IsolatedInjectorDefaults: Sendable {
    private let parent: IsolatedInjectorDefaults?
    private let values: Locked<[ObjectIdentifier: any Sendable]>

    init(parent: IsolatedInjectorDefaults?, values: [ObjectIdentifier: any Sendable]) {
        self.parent = parent
        self.values = Locked(values)
    }

    func value(for id: ObjectIdentifier) -> (any Sendable)? {
        if let value = values.withLock({ $0[id] }) { return value }
        return parent?.value(for: id)
    }

    func set(_ value: any Sendable, for id: ObjectIdentifier) {
        let replaced = values.withLock { $0.updateValue(value, forKey: id) }
        withExtendedLifetime(replaced) {}  // Released here, outside the lock.
    }
}

/// Runs `operation` with its own injector defaults: within it (and its child tasks), setting an
/// ``InjectorDefault/value`` changes it for this scope only, and reads see this scope's values,
/// then the enclosing scope's, then the shared ones. The `TraitInjectionTesting` traits run each
/// test in one.
package func withIsolatedInjectorDefaults<Result>(
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
) async rethrows -> Result {
    let outer = InjectorOverrides.current
    // Defaults overridden with `withValue` around the scope become its starting values, so that
    // setting one inside the scope is seen inside it.
    let scope = InjectorOverrides(isolated: IsolatedInjectorDefaults(parent: outer.isolated, values: outer.values))
    return try await InjectorOverrides.$current.withValue(scope, operation: operation, isolation: isolation)
}
