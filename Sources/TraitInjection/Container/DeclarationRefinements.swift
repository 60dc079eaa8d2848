/// A declared service's scope and `initCompleted` closures (``RegisteredWith/inScope(_:)``,
/// ``RegisteredWith/initCompleted(_:)-((Resolution,Service)->Void)``), in one word: a scope
/// alone is a case of its own, as it is on most declarations; closures are boxed with it.
@usableFromInline
enum DeclarationRefinements: Sendable {
    case transient, graph
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

    @inlinable
    init(_ scope: ScopeKind) {
        switch scope {
        case .transient: self = .transient
        case .graph: self = .graph
        case .shared(let shared): self = .shared(shared)
        }
    }

    var scope: ScopeKind {
        switch self {
        case .transient: .transient
        case .graph: .graph
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
    func scoped(_ scope: ScopeKind) -> DeclarationRefinements {
        guard case .completed = self else { return DeclarationRefinements(scope) }
        return rescoped(scope)
    }

    @usableFromInline
    func rescoped(_ scope: ScopeKind) -> DeclarationRefinements {
        .completed(Completed(scope: scope, completions: completions))
    }

    /// These refinements with `completion` after the others.
    @usableFromInline
    func adding(_ completion: Binding.Completion) -> DeclarationRefinements {
        .completed(Completed(scope: scope, completions: completions + [completion]))
    }
}
