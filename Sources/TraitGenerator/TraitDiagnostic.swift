/// A problem in a `.traits` file, printed the way compilers print errors, so that build tools
/// show it on the offending line.
package struct TraitDiagnostic: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's path, as given to the generator.
    package var path: String
    /// The 1-based line.
    package var line: Int
    /// The 1-based column.
    package var column: Int
    /// What is wrong and what was expected.
    package var message: String

    package init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `path:line:column: error: message`.
    package var description: String {
        "\(path):\(line):\(column): error: \(message)"
    }
}

/// Every problem found in one `.traits` file; the generator reports them all at once.
package struct TraitDiagnostics: Error, Equatable, Sendable, CustomStringConvertible {
    package var diagnostics: [TraitDiagnostic]

    package init(_ diagnostics: [TraitDiagnostic]) {
        self.diagnostics = diagnostics
    }

    package var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
