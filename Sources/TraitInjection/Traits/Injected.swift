/// A type whose instances carry injected traits.
///
/// Adopt it (usually through a trait protocol such as a generated `PetInjected`) by storing an
/// ``InjectableIdentifier``:
///
/// ```swift
/// struct Person: PetInjected {
///     var injectableIdentifier = InjectableIdentifier()
///     var name: String
/// }
///
/// var joe = Person(name: "Joe")
/// joe.pet.name = "Coco"       // stored for joe alone
/// var bob = joe
/// bob.pet.name = "Bubba"      // bob gets his own copy of every trait; joe keeps Coco
/// ```
///
/// Trait values live in the trait store, in a slot the identifier owns, not in the instance, so
/// a `let` struct can still have its defaults stored on first read, and a class instance held in
/// a `let` can set its traits. Read and write traits through ``Injectable`` (the string-named API)
/// or through a ``TraitKey`` with `self[trait: Key.self]` (the typed, faster API).
public protocol Injected {
    /// The identity under which this instance's traits are stored.
    ///
    /// Declare it as a stored `var` initialised to a new identifier, and never assign one
    /// instance's identifier to another: the setters replace it when copy-on-write requires.
    var injectableIdentifier: InjectableIdentifier { get set }
}
