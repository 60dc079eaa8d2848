/// What a registration is filed under: the service type, its name and its argument types — or,
/// for a declared service (``RegisteredWith``), the place of its declaration instead of a name.
@usableFromInline
struct ServiceKey: Hashable, Sendable {
    @usableFromInline let service: ObjectIdentifier
    /// The name it was registered under, if any.
    @usableFromInline let name: String?
    @usableFromInline let arguments: ObjectIdentifier
    /// `0`, or a declared service's line and column in ``file``: then the key is its
    /// declaration's, never a registration's by name.
    @usableFromInline let site: UInt64
    /// A declared service's file (`#fileID`): neither copied nor hashed on a resolve.
    @usableFromInline let file: StaticName

    @inlinable
    init<Service, each Argument>(_: Service.Type, name: String?, arguments: (repeat each Argument).Type) {
        service = ObjectIdentifier(Service.self)
        self.name = name
        self.arguments = Self.identify(arguments)
        site = 0
        file = .none
    }

    /// `arguments` is an argument types' ``identify(_:)``.
    init(erased service: any Any.Type, name: String?, arguments: ObjectIdentifier) {
        self.service = ObjectIdentifier(service)
        self.name = name
        self.arguments = arguments
        site = 0
        file = .none
    }

    /// The key of the service declared at `site` (``DeclarationSite/key``) in `file`.
    @inlinable
    init<Service, each Argument>(
        declared _: Service.Type,
        arguments: (repeat each Argument).Type,
        file: StaticName,
        site: UInt64
    ) {
        service = ObjectIdentifier(Service.self)
        name = nil
        self.arguments = Self.identify(arguments)
        self.site = site
        self.file = file
    }

    /// Whether it is a declared service's key.
    @usableFromInline var isDeclared: Bool { site != 0 }

    /// The identity of a registration's argument types. To Swift, one argument of tuple type
    /// `(Int, String)` and two arguments `Int, String` are one type, `(Int, String)`: each is
    /// wrapped (``KeyedArgument``), so that they are told apart. No arguments is `Void`.
    @inlinable
    static func identify<each Argument>(_: (repeat each Argument).Type) -> ObjectIdentifier {
        ObjectIdentifier((repeat KeyedArgument<each Argument>).self)
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(service)
        hasher.combine(arguments)
        hasher.combine(site)
        if site == 0, let name { hasher.combine(name) }
    }

    /// The type identities first: they tell most keys apart without looking at a name.
    @usableFromInline
    static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
        lhs.service == rhs.service && lhs.arguments == rhs.arguments && lhs.site == rhs.site
            && lhs.name == rhs.name && lhs.file == rhs.file
    }
}

/// One argument type in a ``ServiceKey`` (``ServiceKey/identify(_:)``).
@usableFromInline
enum KeyedArgument<Argument> {}

/// How a registration is shown in errors: `Animal`, `Animal (name: "dog")`,
/// `Animal (arguments: (Int, String))`.
struct ServiceDescription: Hashable, Sendable, CustomStringConvertible {
    let service: String
    let name: String?
    let arguments: String

    /// A declared service's property, `Container.database`: shown in place of the type, which
    /// follows.
    let property: String?

    init<Service, each Argument>(
        _: Service.Type,
        name: String?,
        arguments _: (repeat each Argument).Type,
        declaredAs property: String? = nil
    ) {
        service = String(reflecting: Service.self).droppingModulePrefixes
        self.name = name
        let arguments = String(reflecting: (repeat each Argument).self).droppingModulePrefixes
        self.arguments = arguments == "()" ? "" : arguments
        self.property = property
    }

    var description: String {
        if let property {
            return "\(property) (\(service)\(arguments.isEmpty ? "" : ", arguments: \(arguments)"))"
        }
        var details: [String] = []
        if let name { details.append("name: \"\(name)\"") }
        if !arguments.isEmpty { details.append("arguments: \(arguments)") }
        return details.isEmpty ? service : "\(service) (\(details.joined(separator: ", ")))"
    }
}

/// The runtime arguments of one resolve, kept to tell it from another resolve of the same
/// registration: the same values on the path are a cycle, and share a `.graph` instance.
///
/// Values are compared only when the registration meets itself (or a graph instance of it), so
/// a resolve with arguments hashes nothing. A value that is not `Hashable` equals nothing: such a
/// recursion ends at the depth limit, and never shares a graph instance.
@usableFromInline
struct ArgumentValues: @unchecked Sendable {
    // `@unchecked Sendable`: the values are read only by the resolve they belong to, and by the
    // tasks its factories await, which share its object graph.
    let values: Any
    /// The values' hash, kept for a registration that recurs on the path, which its later resolves
    /// compare with (so a deep recursion hashes each level once); `nil` otherwise.
    let hash: Int?

    @usableFromInline
    init(_ values: Any, hash: Int? = nil) {
        self.values = values
        self.hash = hash
    }

    /// The values of a resolve with `arguments`, or `nil` without any.
    @inlinable
    static func of<each Argument>(_ arguments: repeat each Argument) -> ArgumentValues? {
        (repeat each Argument).self == Void.self ? nil : ArgumentValues((repeat each arguments))
    }

    /// Runs `body` with `values` where the engine borrows them (``ResolveStack/Arguments``);
    /// `nil` for none.
    static func withPointer<Result, Failure: Error>(
        to values: ArgumentValues?,
        _ body: (ResolveStack.Arguments?) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        values == nil ? try body(nil) : try lend(values, body)
    }

    /// Runs `body` with the values `values` gives for `key`, borrowed; for a key without
    /// arguments, `values` is not asked and `body` gets `nil` (no `ArgumentValues?` is made).
    @inline(__always)
    static func withPointer<Result, Failure: Error>(
        for key: ServiceKey,
        _ values: () -> ArgumentValues?,
        _ body: (ResolveStack.Arguments?) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        key.arguments == ObjectIdentifier(Void.self) ? try body(nil) : try lend(values(), body)
    }

    @inline(__always)
    private static func lend<Result, Failure: Error>(
        _ values: ArgumentValues?,
        _ body: (ResolveStack.Arguments?) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withUnsafePointer(to: values, body)
    }

    /// These values, with their hash.
    var hashed: ArgumentValues {
        ArgumentValues(values, hash: Self.hashables(values)?.hashValue)
    }

    /// Each value as an `AnyHashable`, or `nil` if one is not `Hashable`.
    static func hashables(_ values: Any) -> [AnyHashable]? {
        let mirror = Mirror(reflecting: values)
        let elements = mirror.displayStyle == .tuple ? mirror.children.map(\.value) : [values]
        var hashables: [AnyHashable] = []
        for element in elements {
            guard let hashable = element as? any Hashable else { return nil }
            hashables.append(AnyHashable(hashable))
        }
        return hashables
    }
}

extension Optional where Wrapped == ArgumentValues {
    /// Whether both resolves were given equal values, or neither any.
    func matches(_ other: ArgumentValues?) -> Bool {
        guard let self, let other else { return self == nil && other == nil }
        if let hash = self.hash, let otherHash = other.hash, hash != otherHash { return false }
        guard let values = ArgumentValues.hashables(self.values) else { return false }
        return values == ArgumentValues.hashables(other.values)
    }
}

extension String {
    /// `Swift.Int` and `App.Animal` read as `Int` and `Animal`.
    var droppingModulePrefixes: String {
        var result = ""
        var word = ""
        for character in self {
            if character == "." {
                word = ""
            } else if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                result += word + String(character)
                word = ""
            }
        }
        return result + word
    }
}
