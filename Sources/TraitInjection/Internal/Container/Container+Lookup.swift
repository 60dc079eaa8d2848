extension Container {
    /// The registration for `key`, here or in the parent chain, as an unretained reference: the
    /// snapshot it was found in keeps it alive until the calling context's activation ends, even if
    /// a `register` replaces it meanwhile. Call only from an active context.
    @inlinable @inline(__always)
    func registration(for key: ServiceKey) -> Unmanaged<AnyObject>? {
        if let local = localRegistration(for: key) { return local }
        return parentRegistration(for: key)
    }

    /// The registration for `key` in the parent chain.
    @usableFromInline
    func parentRegistration(for key: ServiceKey) -> Unmanaged<AnyObject>? {
        parent?.registration(for: key)
    }
}
