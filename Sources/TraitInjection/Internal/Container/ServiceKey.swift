/// What a registration is filed under: the service type, its name and its argument types.
@usableFromInline
struct ServiceKey: Hashable, Sendable {
    @usableFromInline let service: ObjectIdentifier
    @usableFromInline let name: String?
    @usableFromInline let arguments: ObjectIdentifier

    @inlinable
    init<Service, each Argument>(_: Service.Type, name: String?, arguments _: (repeat each Argument).Type) {
        service = ObjectIdentifier(Service.self)
        self.name = name
        arguments = ObjectIdentifier((repeat each Argument).self)
    }

    /// The type identities first: they tell most keys apart without looking at a name.
    @inlinable @inline(__always)
    static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
        lhs.service == rhs.service && lhs.arguments == rhs.arguments && lhs.name == rhs.name
    }
}

/// How a registration is shown in errors: `Animal`, `Animal (name: "dog")`,
/// `Animal (arguments: (Int, String))`, each with where it was registered.
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

extension String {
    /// `Swift.Int` and `App.Animal` read as `Int` and `Animal`.
    var droppingModulePrefixes: String {
        var result = ""
        var word = ""
        for character in self {
            if character == "." {
                word = ""
                continue
            }
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                result += word
                word = ""
                result.append(character)
            }
        }
        return result + word
    }
}
