/// Turns a `.traits` file into Swift source: for each trait, its injector, key, `XInjected`
/// protocol and property, from `traitTemplate`.
///
/// ```swift
/// let swift = try TraitGenerator.generate(
///     from: "trait pet: Pet = Pet(name: \"Rover\", species: \"Dog\")",
///     path: "Pets.traits"
/// )
/// ```
public enum TraitGenerator {
    private static let renderer = TemplateRenderer(traitTemplate)

    /// Parses `source` and renders the Swift code for its traits.
    ///
    /// - Parameters:
    ///   - source: The contents of a `.traits` file.
    ///   - path: The file's path, used in diagnostics and in the generated header.
    /// - Throws: ``TraitDiagnostics`` listing every problem in the file.
    public static func generate(from source: String, path: String) throws(TraitDiagnostics) -> String {
        try generate(TraitFileParser(path: path).parse(source), path: path)
    }

    /// Renders the Swift code for an already parsed file.
    public static func generate(_ file: TraitFile, path: String) -> String {
        let exportsAPI = file.traits.contains { $0.access != .internal }
        let context: [String: TemplateValue] = [
            "source": .text(path.split(separator: "/").last.map(String.init) ?? path),
            "importKeyword": .text(exportsAPI ? "public import" : "import"),
            "imports": .list(file.imports.map { ["module": .text($0)] }),
            "traits": .list(file.traits.map(context(for:))),
        ]
        return renderer.render(context)
    }

    private static func context(for trait: TraitDeclaration) -> [String: TemplateValue] {
        [
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
                    ]
                }
            ),
        ]
    }
}

extension String {
    var uppercasingFirstLetter: String {
        prefix(1).uppercased() + dropFirst()
    }
}
