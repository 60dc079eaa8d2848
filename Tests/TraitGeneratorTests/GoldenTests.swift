import Foundation
import Testing
import TraitGenerator

/// Generated output for representative declarations, against committed golden files (which CI's
/// `swift format lint --strict` checks too). Set `TRAITGEN_RECORD=1` to rewrite those that
/// changed: the run that rewrites one fails, so a recording is never mistaken for a pass.
@Suite("Generated output")
struct GoldenTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "Support/Golden")

    @Test("Generated code matches its golden file", arguments: ["Example", "Fixtures", "README"])
    func matchesGolden(name: String) throws {
        let expectedURL = Self.golden.appending(path: "\(name).swift")
        let generated = try TraitGenerator.generate(from: Self.input(name), path: "\(name).traits")
        let expected = try? String(contentsOf: expectedURL, encoding: .utf8)
        if ProcessInfo.processInfo.environment["TRAITGEN_RECORD"] != nil, generated != expected {
            try generated.write(to: expectedURL, atomically: true, encoding: .utf8)
            // A recording run never passes: review the new file, then run again without the flag.
            Issue.record("Re-recorded Support/Golden/\(name).swift; review the diff and run without TRAITGEN_RECORD")
            return
        }
        #expect(generated == expected)
    }

    /// The `.traits` input of golden file `name`: `Support/Golden/<name>.traits`, or for `README`,
    /// the README's trait tour, so the README's example is generated exactly as committed.
    static func input(_ name: String) throws -> String {
        guard name == "README" else {
            return try String(contentsOf: golden.appending(path: "\(name).traits"), encoding: .utf8)
        }
        let readme = golden.appending(path: "../../../../README.md").standardizedFileURL
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        // The first plain ``` block after the tour's heading.
        let tour = try #require(lines.firstIndex(of: "## A tour of traits"), "README.md has no trait tour")
        let start = try #require(lines[tour...].firstIndex(of: "```"), "the tour has no .traits block")
        let end = try #require(lines[(start + 1)...].firstIndex(of: "```"), "the tour's .traits block is not closed")
        let block = lines[(start + 1)..<end]
        #expect(block.first?.hasSuffix(".traits") == true, "the tour's first plain block is not a .traits file")
        return block.joined(separator: "\n") + "\n"
    }

    @Test("A read-only trait gets no setter, and no class extension")
    func readOnlyHasNoSetter() throws {
        let generated = try TraitGenerator.generate(from: "readonly trait serial: Int = 42", path: "S.traits")
        #expect(
            generated.contains(
                "var serial: SerialInjector.Value {\n        trait(SerialTrait.self, orDefaultTo: defaultSerial)\n    }"
            ))
        #expect(!generated.contains("setTrait(SerialTrait.self"))
        #expect(!generated.contains("where Self: AnyObject"))
    }

    @Test("The type and each default expression carry the .traits line they come from")
    func sourceLocations() throws {
        let generated = try TraitGenerator.generate(
            from: "# pets\ntrait toy: String = \"ball\"\n    default chewed = \"rope\"",
            path: "/app/Sources/App/T.traits"
        )
        let at2 = "    #sourceLocation(file:\"/app/Sources/App/T.traits\",line:2)\n"
        let end = "\n    #sourceLocation()\n"
        #expect(generated.contains(at2 + "    typealias Value = String" + end))
        #expect(generated.contains(at2 + "    static let toy = InjectorDefault<Value>(\"ball\")" + end))
        let at3 = "    #sourceLocation(file:\"/app/Sources/App/T.traits\",line:3)\n"
        #expect(generated.contains(at3 + "    static let chewedToy = InjectorDefault<Value>(\"rope\")" + end))
        // The type is written nowhere else.
        #expect(generated.components(separatedBy: ": String").count == 1)
    }

    @Test("A settable trait gets a mutating setter and a nonmutating one for classes")
    func settableHasBothSetters() throws {
        let generated = try TraitGenerator.generate(from: "trait toy: String = \"ball\"", path: "T.traits")
        #expect(generated.contains("        set { setTrait(ToyTrait.self, to: newValue) }"))
        #expect(generated.contains("extension ToyInjected where Self: AnyObject {"))
        #expect(generated.contains("        nonmutating set { setTrait(ToyTrait.self, to: newValue) }"))
    }

    @Test("Access levels reach every generated declaration, and imports become public when needed")
    func accessLevels() throws {
        let generated = try TraitGenerator.generate(
            from: "import Foundation\npublic trait id: UUID = UUID()",
            path: "I.traits"
        )
        #expect(generated.contains("public import TraitInjection\npublic import Foundation\n"))
        #expect(generated.contains("public struct IdInjector {"))
        #expect(generated.contains("public protocol IdInjected: Injected {"))
        #expect(generated.contains("    public typealias Value = UUID\n"))
        #expect(generated.contains("    public var id: IdInjector.Value {"))
        let internalOnly = try TraitGenerator.generate(from: "trait id: Int = 0", path: "I.traits")
        #expect(internalOnly.contains("\nimport TraitInjection\n"))
        #expect(internalOnly.contains("\nstruct IdInjector {"))
    }
}
