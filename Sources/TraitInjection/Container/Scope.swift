/// How long a resolved instance of `Service` is reused.
///
/// ```swift
/// container.register(Database.self) { _ in SQLiteDatabase() }.inScope(.container)
/// ```
///
/// ``transient`` and ``graph`` make instances for one resolve. The scopes that hand one instance
/// to every resolve and every thread — ``container``, ``weak``, and those an app defines with a
/// ``SharedScope`` — exist only for `Sendable` services: registering a non-`Sendable` service in
/// them does not compile ("type 'Cache' does not conform to the 'Sendable' protocol"). Make the
/// service `Sendable` (an actor, an immutable class, or a class that guards its state with a
/// lock), or keep it in ``graph`` or ``transient``.
public struct Scope<Service>: Sendable, Hashable, CustomStringConvertible {
    /// The library's own scopes without their ``SharedScope`` objects: `.inScope(.container)` on
    /// a declared service's property (``RegisteredWith/inScope(_:)``), evaluated on every use,
    /// is then a constant the optimiser drops where the resolve does not need it.
    @usableFromInline let choice: ScopeChoice

    @inlinable
    init(_ choice: ScopeChoice) {
        self.choice = choice
    }

    /// The scope as the engine asks it.
    var kind: ScopeKind { choice.kind }

    /// A new instance on every resolve.
    @inlinable
    public static var transient: Scope { Scope(.transient) }

    /// One instance per top-level `resolve` call: every dependency on the service within one
    /// object graph gets the same instance. This is what makes circular dependencies through
    /// ``Registration/initCompleted(_:)-((Resolution,Service)->Void)`` work. The default.
    @inlinable
    public static var graph: Scope { Scope(.graph) }

    /// The scope's name, as errors, traces and the dependency graph show it: `transient`,
    /// `graph`, or the name of its ``SharedScope``.
    public var description: String { kind.description }
}

extension Scope where Service: Sendable {
    /// The scope that keeps one instance per registration in `scope`: how ``container`` and
    /// ``weak`` are defined, and how an app defines a scope of its own.
    ///
    /// ```swift
    /// extension SharedScope {
    ///     /// The signed-in user's services, dropped on sign-out.
    ///     static let session = SharedScope("session")
    /// }
    ///
    /// extension Scope where Service: Sendable {
    ///     static var session: Scope { Scope(.session) }
    /// }
    ///
    /// container.register(ShoppingCart.self) { _ in ShoppingCart() }.inScope(.session)
    /// container.resetScopedInstances(in: .session)  // on sign-out
    /// ```
    public init(_ scope: SharedScope) {
        choice = ScopeChoice(scope)
    }

    /// One instance per container, created exactly once, even when many threads resolve it first
    /// at the same time. Other threads see it only once its resolve has succeeded as a whole.
    ///
    /// In an async resolve, a synchronous factory that needs an instance another thread is
    /// creating is unwound before it returns, and runs again once that instance exists (see
    /// <doc:Concurrency>): one instance is still made and kept.
    @inlinable
    public static var container: Scope { Scope(ScopeChoice.container) }

    /// One instance shared while anyone holds it strongly; a new one after it is released. Acts
    /// like ``transient`` for values that are not objects.
    @inlinable
    public static var weak: Scope { Scope(ScopeChoice.weak) }
}

/// A ``Scope``'s value: the library's scopes as cases, an app's ``SharedScope`` as its object.
@usableFromInline
enum ScopeChoice: Hashable, Sendable {
    case transient, graph, container, weak
    case shared(SharedScope)

    /// `scope`, as the case of the library's own if it is one of them.
    init(_ scope: SharedScope) {
        switch scope {
        case SharedScope.container: self = .container
        case SharedScope.weak: self = .weak
        default: self = .shared(scope)
        }
    }

    var kind: ScopeKind {
        switch self {
        case .transient: .transient
        case .graph: .graph
        case .container: .shared(.container)
        case .weak: .shared(.weak)
        case .shared(let scope): .shared(scope)
        }
    }
}

/// A scope that shares one instance of each registration in it, across resolves and threads,
/// until it is reset: the storage behind ``Scope/container`` and ``Scope/weak``, and behind the
/// scopes an app defines — a session scope whose instances go on sign-out, say.
///
/// ```swift
/// extension SharedScope {
///     static let session = SharedScope("session")
/// }
/// extension Scope where Service: Sendable {
///     static var session: Scope { Scope(.session) }
/// }
/// ```
///
/// Register services in it with the ``Scope`` made from it, and drop its instances when the
/// session ends:
///
/// ```swift
/// container.register(ShoppingCart.self) { _ in ShoppingCart() }.inScope(.session)
/// let cart = try container.resolve(ShoppingCart.self)  // the same cart until sign-out
///
/// container.resetScopedInstances(in: .session)  // on sign-out: the next resolve makes a new cart
/// ```
///
/// Every instance in a shared scope is made exactly once, published only when its resolve has
/// succeeded, and kept by the registration's container: ``Container/resetScopedInstances(in:)``
/// drops those of one scope, ``Container/resetScopedInstances()`` those of every scope.
///
/// > Important: Two scopes are the same scope only if they are the same object. Make each scope
/// > once, as a `static let`: a second `SharedScope("session")` is another scope, which a reset
/// > of the first does not reach.
public final class SharedScope: Sendable, Hashable, CustomStringConvertible {
    /// The scope's name, as errors, traces and the dependency graph show it.
    public let name: String
    /// Whether the scope holds its instances weakly: each is kept while something else holds it.
    public let holdsWeakly: Bool

    /// A shared scope called `name`, holding its instances strongly or weakly.
    ///
    /// ```swift
    /// extension SharedScope {
    ///     /// A screen's services, shared while the screen holds them.
    ///     static let screen = SharedScope("screen", holdsWeakly: true)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name errors, traces and the dependency graph show for the scope.
    ///   - holdsWeakly: Whether the scope keeps each instance only while something else holds it
    ///     strongly, as ``Scope/weak`` does; `false`, the default, keeps it until a reset.
    public init(_ name: String, holdsWeakly: Bool = false) {
        self.name = name
        self.holdsWeakly = holdsWeakly
    }

    /// One instance per registration, kept as long as its container: ``Scope/container``.
    public static let container = SharedScope("container")

    /// One instance per registration, kept while something else holds it: ``Scope/weak``.
    public static let weak = SharedScope("weak", holdsWeakly: true)

    /// The scope's ``name``.
    public var description: String { name }

    /// Whether `lhs` and `rhs` are the same scope: the same object, whatever their names.
    public static func == (lhs: SharedScope, rhs: SharedScope) -> Bool { lhs === rhs }

    /// Hashes the scope's identity, which `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// A scope as the engine asks it, without its service type: whether and how it keeps an
/// instance, whether a reset reaches what it keeps, and how long that lives. A new keeping rule
/// (an expiring scope, say) is a case here and its answers.
@usableFromInline
enum ScopeKind: Hashable, Sendable, CustomStringConvertible {
    case transient, graph
    case shared(SharedScope)

    /// How long what a scope keeps lives, shortest first: `verify()` reports a
    /// `.container` instance that keeps one of a shorter-lived shared scope.
    enum Lifetime {
        /// Nothing is kept beyond the resolve (`.transient`, `.graph`).
        case resolve
        /// Kept while something else holds it (`.weak`, or a weak scope of the app's).
        case whileHeld
        /// Kept until the app resets the scope (a ``SharedScope`` of the app's, such as a session's).
        case untilReset
        /// Kept as long as the container (`.container`).
        case container
    }

    var lifetime: Lifetime {
        switch self {
        case .transient, .graph: .resolve
        case .shared(let scope) where scope.holdsWeakly: .whileHeld
        case .shared(let scope): scope == .container ? .container : .untilReset
        }
    }

    /// Whether instances are kept by the registration and shared across resolves and threads.
    var isShared: Bool {
        if case .shared = self { true } else { false }
    }

    /// What the scope keeps of a new `instance` of `Service`: its `Kept<Service>` box, a weak
    /// reference to it, or nothing — a weak scope keeps objects only, and hands a value out
    /// unkept, as `.transient` does.
    func keep<Service>(_ instance: Any, as _: Service.Type) -> KeptState {
        guard lifetime == .whileHeld else { return .strong(Kept(instance as! Service)) }
        guard type(of: instance) is AnyClass else { return .empty }
        return .weak(WeakReference(instance as AnyObject))
    }

    /// Whether dropping the instances of `scope` (`nil`: of every scope) drops what this one keeps.
    func isReached(byResetOf scope: SharedScope?) -> Bool {
        guard case .shared(let own) = self else { return false }
        return scope.map { $0 == own } ?? true
    }

    @usableFromInline
    var description: String {
        switch self {
        case .transient: "transient"
        case .graph: "graph"
        case .shared(let scope): scope.name
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
