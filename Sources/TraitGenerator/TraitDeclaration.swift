/// One trait declared in a `.traits` file.
package struct TraitDeclaration: Equatable, Sendable {
    /// How visible the generated declarations are.
    package enum Access: String, CaseIterable, Comparable, Sendable {
        case `public`, `package`, `internal`

        /// Less visible first: `internal < package < public`.
        package static func < (lhs: Self, rhs: Self) -> Bool {
            let order: [Self] = [.internal, .package, .public]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
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

/// A module the generated code imports besides TraitInjection: `import Foundation`, or with an
/// access level, `internal import Foundation`.
package struct TraitImport: Equatable, Sendable {
    /// The module, such as `Foundation`.
    package var module: String
    /// The access level written before `import`; without one, the generated import is as visible as
    /// the file's most visible trait.
    package var access: TraitDeclaration.Access?
    /// Whether the line starts with `@preconcurrency`.
    package var isPreconcurrency: Bool
    /// The 1-based line of the `import` line, for the compiler's diagnostics.
    package var line: Int

    package init(
        module: String, access: TraitDeclaration.Access? = nil, isPreconcurrency: Bool = false, line: Int = 1
    ) {
        self.module = module
        self.access = access
        self.isPreconcurrency = isPreconcurrency
        self.line = line
    }
}

/// The contents of one `.traits` file.
package struct TraitFile: Equatable, Sendable {
    /// Modules the generated code imports besides TraitInjection.
    package var imports: [TraitImport]
    /// The traits, in declaration order.
    package var traits: [TraitDeclaration]

    package init(imports: [TraitImport] = [], traits: [TraitDeclaration]) {
        self.imports = imports
        self.traits = traits
    }
}
