/// A problem in a `.traits` file, printed the way compilers print errors, so that build tools
/// show it on the offending line.
public struct TraitDiagnostic: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's path, as given to the generator.
    public var path: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int
    /// What is wrong and what was expected.
    public var message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `path:line:column: error: message`.
    public var description: String {
        "\(path):\(line):\(column): error: \(message)"
    }
}

/// Every problem found in one `.traits` file; the generator reports them all at once.
public struct TraitDiagnostics: Error, Equatable, Sendable, CustomStringConvertible {
    public var diagnostics: [TraitDiagnostic]

    public init(_ diagnostics: [TraitDiagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
