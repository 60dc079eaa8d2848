/// Turns a `.traits` file into Swift source: for each trait, its injector, key, `XInjected`
/// protocol and property, from `traitTemplate`.
///
/// ```swift
/// let swift = try TraitGenerator.generate(
///     from: "trait pet: Pet = Pet(name: \"Rover\", species: \"Dog\")",
///     path: "Pets.traits"
/// )
/// ```
package enum TraitGenerator {
    private static let renderer = TemplateRenderer(traitTemplate)

    /// Parses `source` and renders the Swift code for its traits.
    ///
    /// - Parameters:
    ///   - source: The contents of a `.traits` file.
    ///   - path: The file's path, used in diagnostics and in the generated header.
    /// - Throws: ``TraitDiagnostics`` listing every problem in the file.
    package static func generate(from source: String, path: String) throws(TraitDiagnostics) -> String {
        try generate(TraitFileParser(path: path).parse(source), path: path)
    }

    /// The text of a `.traits` file from its bytes, or a diagnostic at the first byte sequence
    /// that is not UTF-8.
    ///
    /// - Throws: ``TraitDiagnostics`` with the line and column (in characters) of the bad bytes.
    package static func decode(_ bytes: [UInt8], path: String) throws(TraitDiagnostics) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var line = 1
        var lineStart = 0
        var offset = 0
        var previous: UInt8 = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                offset += scalar.count
                let byte = scalar.count == 1 ? scalar.first! : 0
                // A line ends at LF, CR or CRLF (counted once).
                if byte == UInt8(ascii: "\r") || (byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r")) {
                    line += 1
                }
                if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") { lineStart = offset }
                previous = byte
            case .emptyInput:
                return String(decoding: bytes, as: UTF8.self)
            case .error(let length):
                let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
                let shown = bytes[offset..<min(offset + length, bytes.count)].map {
                    "0x" + String($0, radix: 16, uppercase: true)
                }
                throw TraitDiagnostics([
                    TraitDiagnostic(
                        path: path,
                        line: line,
                        column: column,
                        message: "the file is not valid UTF-8 here (\(shown.joined(separator: " "))); save it as UTF-8"
                    )
                ])
            }
        }
    }

    /// Renders the Swift code for an already parsed file.
    package static func generate(_ file: TraitFile, path: String) -> String {
        // With `InternalImportsByDefault`, imports are as visible as the most visible trait (a
        // `public import` that no public declaration uses is a warning), unless the file says.
        let widest = file.traits.map(\.access).max() ?? .internal
        func keyword(_ access: TraitDeclaration.Access) -> String {
            access == .internal ? "import" : "\(access.rawValue) import"
        }
        let context: [String: TemplateValue] = [
            // The file name goes into a `//` comment: no line break may end it early.
            "source": .text(
                String((path.split(separator: "/").last.map(String.init) ?? path).map { $0.isNewline ? " " : $0 })),
            // The file's own `import TraitInjection` (perhaps with a level) replaces the generated one.
            "importsTraitInjection": .flag(file.imports.contains { $0.module == "TraitInjection" }),
            "importLevels": .flag(widest != .internal || file.imports.contains { $0.access != nil }),
            "importKeyword": .text(keyword(widest)),
            "imports": .list(
                file.imports.map {
                    [
                        "module": .text($0.module),
                        "attribute": .text($0.isPreconcurrency ? "@preconcurrency " : ""),
                        // An explicit level is kept as written: `internal import` stays explicit.
                        "keyword": .text($0.access.map { "\($0.rawValue) import" } ?? keyword(widest)),
                        "importLocation": .text(sourceLocation(path, $0.line)),
                    ]
                }
            ),
            "traits": .list(file.traits.map { Self.context(for: $0, path: path) }),
        ]
        return renderer.render(context)
    }

    private static func context(for trait: TraitDeclaration, path: String) -> [String: TemplateValue] {
        [
            "location": .text(sourceLocation(path, trait.line)),
            "name": .text(trait.name),
            "Name": .text(trait.name.uppercasingFirstLetter),
            "type": .text(trait.type),
            "default": .text(trait.defaultExpression),
            "access": .text(trait.access == .internal ? "" : "\(trait.access.rawValue) "),
            "readOnly": .flag(trait.isReadOnly),
            "namedDefaults": .list(
                trait.namedDefaults.map {
                    [
                        "variant": .text($0.name),
                        "Variant": .text($0.name.uppercasingFirstLetter),
                        "expression": .text($0.expression),
                        "defaultLocation": .text(sourceLocation(path, $0.line)),
                    ]
                }
            ),
        ]
    }
}

/// A directive that makes the compiler report the next line as `line` of `path`.
private func sourceLocation(_ path: String, _ line: Int) -> String {
    var literal = ""
    for character in path {
        switch character {
        case "\\", "\"": literal += "\\\(character)"
        case "\n": literal += "\\n"
        case "\r": literal += "\\r"
        case "\r\n": literal += "\\r\\n"
        default: literal.append(character)
        }
    }
    // Spelled as `swift format` spells it, so that generated code passes its lint.
    return "#sourceLocation(file:\"\(literal)\",line:\(line))"
}

extension String {
    var uppercasingFirstLetter: String {
        prefix(1).uppercased() + dropFirst()
    }
}
