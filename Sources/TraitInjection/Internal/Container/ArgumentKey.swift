/// A registration and the values of the runtime arguments it is resolved with.
@usableFromInline
struct ArgumentKey: Hashable {
    @usableFromInline let registration: ObjectIdentifier
    @usableFromInline let values: [AnyHashable]

    /// The key of `registration` with `arguments`, or `nil` if an argument is not `Hashable`:
    /// such a resolve is never taken for a cycle (a runaway recursion still ends at the depth
    /// limit) and never shares a graph instance.
    @usableFromInline
    init?<each Argument>(_ registration: AnyObject, _ arguments: repeat each Argument) {
        var values: [AnyHashable] = []
        for argument in repeat each arguments {
            guard let hashable = argument as? any Hashable else { return nil }
            values.append(AnyHashable(hashable))
        }
        self.registration = ObjectIdentifier(registration)
        self.values = values
    }
}

/// A graph-scoped instance of a registration that takes runtime arguments: by their values and
/// the container its dependencies were looked up from.
@usableFromInline
struct GraphArgumentKey: Hashable {
    @usableFromInline let arguments: ArgumentKey
    @usableFromInline let container: ObjectIdentifier

    @usableFromInline
    init(arguments: ArgumentKey, container: ObjectIdentifier) {
        self.arguments = arguments
        self.container = container
    }
}
