extension Container {
    /// Where a resolver reads a declared service's property (``Resolution/subscript(dynamicMember:)``):
    /// a property only says what its service is, whichever container it is read on.
    @usableFromInline static let declaring = Container()

    /// Undoes the overrides of every declared service in this container and drops the instances
    /// their scopes kept here: the next use files the default again, or finds a parent's
    /// registration. What a test that overrode several calls when it ends. A parent's
    /// registrations stay.
    public func resetDeclaredServices() {
        withExtendedLifetime(unfile(registry.entries.map(\.key).filter(\.isDeclared))) {}
    }
}
