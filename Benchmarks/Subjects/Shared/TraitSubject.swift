// The trait rows of the technique split, compiled once per module under test (see `Package.swift`):
// `Subjects/<name>/TraitSubject.swift` links here, so every variant runs exactly the same code.

#if VARIANT_LockedSlot
    import TraitInjectionLockedSlot
#else
    import TraitInjection
#endif

enum SplitPetTrait: TraitKey { static var defaultValue: String { "Rover" } }

enum SplitToyTrait: TraitKey { static var defaultValue: String { "ball" } }

struct SplitOwner: Injected {
    var injectableIdentifier = InjectableIdentifier()
}

/// A thousand owners that have stored their pet, and the trait operations of the split's rows.
public final class TraitSubject: Sendable {
    let owners: [SplitOwner]

    public init() {
        owners = (0..<1_000).map { _ in SplitOwner() }
        for owner in owners { _ = owner[trait: SplitPetTrait.self] }
    }

    /// A stored read of the pet of owner `index % 1_000`.
    public func storedRead(_ index: Int) -> String {
        owners[index % owners.count][trait: SplitPetTrait.self]
    }

    /// An owner created, its pet read (storing the default), a toy set, and the owner dropped.
    public func createReadSetDrop() -> Int {
        var owner = SplitOwner()
        let pet = owner[trait: SplitPetTrait.self]
        owner[trait: SplitToyTrait.self] = "rope"
        return pet.utf8.count + owner[trait: SplitToyTrait.self].utf8.count
    }

    /// An owner created and dropped without touching a trait.
    public func createAndDrop() -> Int {
        let owner = SplitOwner()
        return withExtendedLifetime(owner) { 1 }
    }
}
