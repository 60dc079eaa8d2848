import Foundation
import Testing
import TraitGenerator

/// The playground cannot run the plugin, so it spells out the generated declarations: they must
/// stay what the generator writes for the `.traits` lines the playground shows.
@Suite("The playground's traits")
struct PlaygroundTests {
    @Test("The playground's hand-written traits are the generator's output for its .traits block")
    func playgroundMatchesGenerator() throws {
        let playground = URL(fileURLWithPath: #filePath)
            .appending(path: "../../../Playgrounds/TraitInjection.playground/Contents.swift").standardizedFileURL
        let lines = try String(contentsOf: playground, encoding: .utf8).components(separatedBy: "\n")
        // The .traits block of the opening comment, and the region the generator's output fills.
        let fence = try #require(lines.firstIndex(of: " ```"))
        let fenceEnd = try #require(lines[(fence + 1)...].firstIndex(of: " ```"))
        let traits = lines[(fence + 1)..<fenceEnd].map { String($0.dropFirst()) }.joined(separator: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("// The generator's output for the traits above") })
        let end = try #require(lines.firstIndex(of: "// End of the generator's output."))
        let written = lines[(start + 1)..<end].joined(separator: "\n")

        let generated = try TraitGenerator.generate(from: traits, path: "Playground.traits")
        #expect(Self.code(of: written) == Self.code(of: generated))
    }

    /// `swift` without comments, line directives, explicit `return`s (the generator writes them so
    /// that a `Void` trait does not warn) and whitespace.
    static func code(of swift: String) -> String {
        swift.components(separatedBy: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "{ return ", with: "{ ") }
            .map { $0.hasPrefix("return ") ? String($0.dropFirst("return ".count)) : $0 }
            .filter { !$0.hasPrefix("//") && !$0.hasPrefix("#sourceLocation") }
            .map { line in
                // A one-line `/** … */` doc comment before a declaration.
                guard line.hasPrefix("/**"), let close = line.range(of: "*/") else { return line }
                return String(line[close.upperBound...])
            }
            .joined()
            .filter { !$0.isWhitespace }
    }
}
