/// What a registration is filed under: the service type, its name and its argument types.
struct ServiceKey: Hashable, Sendable {
    let service: ObjectIdentifier
    let name: String?
    let arguments: ObjectIdentifier

    init<Service, each Argument>(_: Service.Type, name: String?, arguments _: (repeat each Argument).Type) {
        service = ObjectIdentifier(Service.self)
        self.name = name
        arguments = ObjectIdentifier((repeat each Argument).self)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(service)
        hasher.combine(arguments)
        if let name { hasher.combine(name) }
    }

    /// The type identities first: they tell most keys apart without looking at a name.
    static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
        lhs.service == rhs.service && lhs.arguments == rhs.arguments && lhs.name == rhs.name
    }
}

/// How a registration is shown in errors: `Animal`, `Animal (name: "dog")`,
/// `Animal (arguments: (Int, String))`.
struct ServiceDescription: Hashable, Sendable, CustomStringConvertible {
    let service: String
    let name: String?
    let arguments: String

    init<Service, each Argument>(_: Service.Type, name: String?, arguments _: (repeat each Argument).Type) {
        service = String(reflecting: Service.self).droppingModulePrefixes
        self.name = name
        let arguments = String(reflecting: (repeat each Argument).self).droppingModulePrefixes
        self.arguments = arguments == "()" ? "" : arguments
    }

    var description: String {
        var details: [String] = []
        if let name { details.append("name: \"\(name)\"") }
        if !arguments.isEmpty { details.append("arguments: \(arguments)") }
        return details.isEmpty ? service : "\(service) (\(details.joined(separator: ", ")))"
    }
}

/// The runtime arguments of one resolve, kept to tell it from another resolve of the same
/// registration: the same values on the path are a cycle, and share a `.graph` instance.
///
/// Values are compared only when the registration meets itself, so a resolve with arguments
/// hashes nothing. A value that is not `Hashable` equals nothing: such a recursion ends at the
/// depth limit, and never shares a graph instance.
struct ArgumentValues: @unchecked Sendable {
    // `@unchecked Sendable`: the values are read only by the resolve they belong to, and by the
    // tasks its factories await, which share its object graph.
    private let values: Any
    /// The values' hash, kept for a registration that recurs on the path (its later resolves
    /// compare with it, so a deep recursion hashes each level once); `nil` otherwise.
    let hash: Int?

    init<each Argument>(_ arguments: repeat each Argument, hashed: Bool = false) {
        values = (repeat each arguments)
        hash = hashed ? Self.hash(repeat each arguments) : nil
    }

    /// The hash of `arguments`, or `nil` if one is not `Hashable`.
    static func hash<each Argument>(_ arguments: repeat each Argument) -> Int? {
        var hasher = Hasher()
        for argument in repeat each arguments {
            guard let hashable = argument as? any Hashable else { return nil }
            hasher.combine(AnyHashable(hashable))
        }
        return hasher.finalize()
    }

    /// Whether these are the values `arguments` (whose hash is `hash`, if known), of the same
    /// registration.
    func matches<each Argument>(_ arguments: repeat each Argument, hash: Int? = nil) -> Bool {
        if let hash, let own = self.hash, own != hash { return false }
        guard let values = values as? (repeat each Argument) else { return false }
        if let hash, self.hash == nil, hash != Self.hash(repeat each values) { return false }
        var equal = true
        repeat equal = equal && Self.same(each arguments, each values)
        return equal
    }

    private static func same<Value>(_ value: Value, _ other: Value) -> Bool {
        guard let value = value as? any Hashable, let other = other as? any Hashable else { return false }
        return AnyHashable(value) == AnyHashable(other)
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
