/// How long a resolved instance is reused.
///
/// ```swift
/// container.register(Database.self) { _ in SQLiteDatabase() }.inScope(.container)
/// ```
public enum Scope: Sendable, Hashable, CustomStringConvertible {
    /// A new instance on every resolve.
    case transient
    /// One instance per top-level `resolve` call: every dependency on the service within one
    /// object graph gets the same instance. This is what makes circular dependencies through
    /// ``Registration/initCompleted(_:)`` work. The default.
    case graph
    /// One instance per container, created exactly once, even when many threads resolve it first
    /// at the same time.
    case container
    /// One instance shared while anyone holds it strongly; a new one after it is released. Acts
    /// like ``transient`` for value types.
    case weak

    /// A small code, for keeping the scope in an atomic.
    @usableFromInline
    var code: UInt8 {
        switch self {
        case .transient: 0
        case .graph: 1
        case .container: 2
        case .weak: 3
        }
    }

    @inlinable
    init(code: UInt8) {
        switch code {
        case 0: self = .transient
        case 1: self = .graph
        case 2: self = .container
        default: self = .weak
        }
    }

    public var description: String {
        switch self {
        case .transient: "transient"
        case .graph: "graph"
        case .container: "container"
        case .weak: "weak"
        }
    }
}

/// What ``Container/reinitialize()`` does with a registration's cached instance (seed 001's
/// `reCreate` and `reUse`).
public enum ReinitializeStrategy: Sendable, Hashable {
    /// Drop the cached instance; the next resolve creates a new one. The default.
    case reCreate
    /// Keep the cached instance.
    case reUse
}
