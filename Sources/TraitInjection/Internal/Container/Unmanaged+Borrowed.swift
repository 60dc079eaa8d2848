extension Unmanaged {
    /// Runs `body` with the referenced object, neither retained nor released, and keeps the
    /// `ResolutionError` type of what it throws.
    ///
    /// A resolve reaches registrations and resolution contexts that something else keeps alive
    /// (the snapshot it found the registration in, until its activation ends; the reference every
    /// context keeps to itself, as contexts are never freed); borrowing them this way spares every
    /// resolve the atomic reference-count updates a strong reference would cost.
    @inlinable @inline(__always)
    func withBorrowed<Result>(_ body: (Instance) throws(ResolutionError) -> Result) throws(ResolutionError) -> Result {
        do {
            return try _withUnsafeGuaranteedRef(body)
        } catch {
            // `_withUnsafeGuaranteedRef` rethrows untyped; `body` only ever throws a ResolutionError.
            throw ResolutionError.rethrown(error)
        }
    }
}

extension ResolutionError {
    /// `error` as the ``ResolutionError`` it is.
    @usableFromInline
    static func rethrown(_ error: any Error) -> ResolutionError {
        if let resolutionError = error as? ResolutionError { return resolutionError }
        return ResolutionError(
            kind: .factoryFailed,
            service: "?",
            path: [],
            availableRegistrations: [],
            underlyingError: String(describing: error)
        )
    }
}
