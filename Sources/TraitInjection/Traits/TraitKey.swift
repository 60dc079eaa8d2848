/// A key for one typed trait: its value type and the default an instance starts with.
///
/// A key type is the trait's identity, so two keys never clash even when their values have the
/// same type, and no string is hashed on access. Declare a key, then expose it as a property on a
/// trait protocol:
///
/// ```swift
/// enum PetTrait: TraitKey {
///     static var defaultValue: Pet { PetInjector.defaultPet }
/// }
///
/// protocol PetInjected: Injected {}
///
/// extension PetInjected {
///     var pet: Pet {
///         get { self[trait: PetTrait.self] }
///         set { self[trait: PetTrait.self] = newValue }
///     }
/// }
/// ```
///
/// The default is read once per instance, on the first read, and stored; later changes to the
/// default do not reach instances that already read the trait.
public protocol TraitKey {
    /// The type of the trait's value.
    associatedtype Value: Sendable

    /// The value an instance's trait starts with, read on its first access.
    static var defaultValue: Value { get }
}
