/// A declared service's scope and `initCompleted` closures (``RegisteredWith/inScope(_:)``,
/// ``RegisteredWith/initCompleted(_:)-((Resolution,Service)->Void)``), in one word: a scope
/// alone is a case of its own, as it is on most declarations; closures are boxed with it.
@usableFromInline
enum DeclarationRefinements: Sendable {
    // The cases of ``ScopeChoice``, flat: an enum holding that enum takes a byte more.
    case transient, graph, container, weak
    case shared(SharedScope)
    case completed(Completed)

    /// A scope with `initCompleted` closures.
    @usableFromInline
    final class Completed: Sendable {
        let scope: ScopeKind
        let completions: [Binding.Completion]

        init(scope: ScopeKind, completions: [Binding.Completion]) {
            self.scope = scope
            self.completions = completions
        }
    }

    /// Just `scope`.
    @inlinable
    init(_ scope: ScopeChoice) {
        switch scope {
        case .transient: self = .transient
        case .graph: self = .graph
        case .container: self = .container
        case .weak: self = .weak
        case .shared(let shared): self = .shared(shared)
        }
    }

    var scope: ScopeKind {
        switch self {
        case .transient: .transient
        case .graph: .graph
        case .container: .shared(.container)
        case .weak: .shared(.weak)
        case .shared(let shared): .shared(shared)
        case .completed(let completed): completed.scope
        }
    }

    var completions: [Binding.Completion] {
        guard case .completed(let completed) = self else { return [] }
        return completed.completions
    }

    /// These refinements in `scope`.
    @inlinable
    func scoped(_ scope: ScopeChoice) -> DeclarationRefinements {
        guard case .completed = self else { return DeclarationRefinements(scope) }
        return rescoped(scope)
    }

    @usableFromInline
    func rescoped(_ scope: ScopeChoice) -> DeclarationRefinements {
        .completed(Completed(scope: scope.kind, completions: completions))
    }

    /// These refinements with `completion` after the others.
    @usableFromInline
    func adding(_ completion: Binding.Completion) -> DeclarationRefinements {
        .completed(Completed(scope: scope, completions: completions + [completion]))
    }
}
