// The baseline of `Sources/TraitInjection/Internal/Container/RegistrySnapshot.swift`: the same
// API on a standard `Dictionary`, for the technique split in `Benchmarks/README.md`. This module
// is the library with that one file swapped for this one.

/// An immutable copy of a container's registrations, read by lookups without a lock.
@usableFromInline
final class RegistrySnapshot: @unchecked Sendable {
    @usableFromInline let registrations: [ServiceKey: any AnyRegistration]

    init(table: RegistrationTable) {
        registrations = Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, $0.registration) })
    }

    /// The registration filed under `key`.
    @inlinable @inline(__always)
    func registration(for key: ServiceKey) -> Unmanaged<AnyObject>? {
        registrations[key].map { Unmanaged.passUnretained($0 as AnyObject) }
    }
}
