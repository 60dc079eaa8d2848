/// A value that is `Sendable` by an invariant its user states.
@usableFromInline
struct UncheckedBox<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}
