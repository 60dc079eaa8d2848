// The plain baseline of `Sources/TraitInjection/Internal/Container/Container+Registry.swift`, for
// the technique split in `Benchmarks/README.md`: every lookup takes the registry's lock and reads
// the registration table under it; no snapshot is published, retired or reclaimed.
//
// An optimistic baseline: a plain design would also retain the registration it found (it can be
// replaced while the resolve runs), and this one does not. Only for measuring: a registration
// replaced during a resolve may be freed under it here.

extension Container {
    /// The registration for `key` in this container, read under the registry's lock.
    @usableFromInline
    func localRegistration(for key: ServiceKey) -> Unmanaged<AnyObject>? {
        registry.withLock { registry in
            registry.table.registration(for: key).map { Unmanaged.passUnretained($0 as AnyObject) }
        }
    }

    /// Nothing to retire: lookups read the table itself.
    func retireSnapshot(_ registry: inout Registry) {}

    /// Nothing to reclaim.
    func reclaimSnapshots(_ registry: inout Registry) -> [RetiredSnapshot] { [] }

    /// Nothing to release.
    func releaseUnreadSnapshots() {}
}
