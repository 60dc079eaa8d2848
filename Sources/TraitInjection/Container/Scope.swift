/// How long a resolved instance of `Service` is reused.
///
/// ```swift
/// container.register(Database.self) { _ in SQLiteDatabase() }.inScope(.container)
/// ```
///
/// The scopes that hand one instance to every thread, ``container`` and ``weak``, exist only for
/// `Sendable` services: registering a non-`Sendable` service in them does not compile ("type
/// 'Cache' does not conform to the 'Sendable' protocol"). Make the service `Sendable` (an actor,
/// an immutable class, or a class that guards its state with a lock), or keep it in ``graph`` or
/// ``transient``.
public struct Scope<Service>: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    let kind: ScopeKind

    init(_ kind: ScopeKind) {
        self.kind = kind
    }

    /// A new instance on every resolve.
    public static var transient: Scope { Scope(.transient) }

    /// One instance per top-level `resolve` call: every dependency on the service within one
    /// object graph gets the same instance. This is what makes circular dependencies through
    /// ``Registration/initCompleted(_:)-((Resolution,Service)->Void)`` work. The default.
    public static var graph: Scope { Scope(.graph) }

    public var description: String { kind.description }
}

extension Scope where Service: Sendable {
    /// One instance per container, created exactly once, even when many threads resolve it first
    /// at the same time. Other threads see it only once its resolve has succeeded as a whole.
    public static var container: Scope { Scope(.container) }

    /// One instance shared while anyone holds it strongly; a new one after it is released. Acts
    /// like ``transient`` for values that are not objects.
    public static var weak: Scope { Scope(.weak) }
}

/// A scope, without its service type.
@usableFromInline
enum ScopeKind: UInt8, Sendable, CustomStringConvertible {
    case transient, graph, container, weak

    /// Whether instances are kept in the registration's cell and shared across threads.
    @inlinable @inline(__always)
    var keepsInstance: Bool {
        switch self {
        case .container, .weak: true
        case .transient, .graph: false
        }
    }

    @usableFromInline
    var description: String {
        switch self {
        case .transient: "transient"
        case .graph: "graph"
        case .container: "container"
        case .weak: "weak"
        }
    }
}

/// What ``Container/reinitialize()`` does with a registration's cached instance: create it again
/// on the next resolve (`reCreate`) or keep it (`reUse`).
public enum ReinitializeStrategy: Sendable, Hashable {
    /// Drop the cached instance; the next resolve creates a new one. The default.
    case reCreate
    /// Keep the cached instance.
    case reUse
}
