/// One trait declared in a `.traits` file.
public struct TraitDeclaration: Equatable, Sendable {
    /// How visible the generated declarations are.
    public enum Access: String, CaseIterable, Sendable {
        case `public`, `package`, `internal`
    }

    /// An extra default held by the trait's injector, such as `comical` in
    /// `default comical = "'Tis but a scratch!"`.
    public struct NamedDefault: Equatable, Sendable {
        public var name: String
        public var expression: String

        public init(name: String, expression: String) {
            self.name = name
            self.expression = expression
        }
    }

    /// The property's name, such as `pet`.
    public var name: String
    /// The value type, such as `Pet`.
    public var type: String
    /// The default value's expression, such as `Pet(name: "Rover", species: "Dog")`.
    public var defaultExpression: String
    /// The generated declarations' access level.
    public var access: Access
    /// Whether the property has no setter: its value stays the default read first.
    public var isReadOnly: Bool
    /// Extra defaults held by the injector.
    public var namedDefaults: [NamedDefault]
    /// The 1-based line of the declaration, for diagnostics.
    public var line: Int

    public init(
        name: String,
        type: String,
        defaultExpression: String,
        access: Access = .internal,
        isReadOnly: Bool = false,
        namedDefaults: [NamedDefault] = [],
        line: Int = 1
    ) {
        self.name = name
        self.type = type
        self.defaultExpression = defaultExpression
        self.access = access
        self.isReadOnly = isReadOnly
        self.namedDefaults = namedDefaults
        self.line = line
    }
}

/// The contents of one `.traits` file.
public struct TraitFile: Equatable, Sendable {
    /// Modules the generated code imports besides TraitInjection, such as `Foundation`.
    public var imports: [String]
    /// The traits, in declaration order.
    public var traits: [TraitDeclaration]

    public init(imports: [String] = [], traits: [TraitDeclaration]) {
        self.imports = imports
        self.traits = traits
    }
}
