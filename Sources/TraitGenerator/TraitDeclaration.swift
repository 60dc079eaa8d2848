/// One trait declared in a `.traits` file.
package struct TraitDeclaration: Equatable, Sendable {
    /// How visible the generated declarations are.
    package enum Access: String, CaseIterable, Sendable {
        case `public`, `package`, `internal`
    }

    /// An extra default held by the trait's injector, such as `comical` in
    /// `default comical = "'Tis but a scratch!"`.
    package struct NamedDefault: Equatable, Sendable {
        package var name: String
        package var expression: String
        /// The 1-based line of the `default` line, for the compiler's diagnostics.
        package var line: Int

        package init(name: String, expression: String, line: Int = 1) {
            self.name = name
            self.expression = expression
            self.line = line
        }
    }

    /// The property's name, such as `pet`.
    package var name: String
    /// The value type, such as `Pet`.
    package var type: String
    /// The default value's expression, such as `Pet(name: "Rover", species: "Dog")`.
    package var defaultExpression: String
    /// The generated declarations' access level.
    package var access: Access
    /// Whether the property has no setter: its value stays the default read first.
    package var isReadOnly: Bool
    /// Extra defaults held by the injector.
    package var namedDefaults: [NamedDefault]
    /// The 1-based line of the declaration, for diagnostics.
    package var line: Int

    package init(
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
package struct TraitFile: Equatable, Sendable {
    /// Modules the generated code imports besides TraitInjection, such as `Foundation`.
    package var imports: [String]
    /// The traits, in declaration order.
    package var traits: [TraitDeclaration]

    package init(imports: [String] = [], traits: [TraitDeclaration]) {
        self.imports = imports
        self.traits = traits
    }
}
