import Foundation
import Testing
import TraitGenerator

/// Generated output for representative declarations, against committed golden files
/// (`CompilerDiagnosticTests` compiles such output). Set `TRAITGEN_RECORD=1` to rewrite those that
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
        let getter = [
            " */ var serial: SerialInjector.Value {", "        #sourceLocation(file:\"S.traits\",line:1)",
            "        return trait(SerialTrait.self, orDefaultTo: defaultSerial)", "        #sourceLocation()", "    }",
        ].joined(separator: "\n")
        #expect(generated.contains(getter))
        #expect(!generated.contains("setTrait(SerialTrait.self"))
        #expect(!generated.contains("where Self: AnyObject"))
    }

    @Test("The type, each default and what they can break carry the .traits line they come from")
    func sourceLocations() throws {
        let generated = try TraitGenerator.generate(
            from: "# pets\ntrait toy: String = \"ball\"\n    default chewed = \"rope\"",
            path: "/app/Sources/App/T.traits"
        )
        // The type is written once.
        #expect(generated.components(separatedBy: ": String").count == 1)
        #expect(generated.components(separatedBy: "= String").count == 2)
        // Each line that uses the type or the key directly follows a directive naming its line (2 for
        // the trait, 3 for the named default's storage and accessors).
        let lines = generated.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let mapped = [
            "typealias Value = String", "static let toy = InjectorDefault<Value>(\"ball\")",
            "static let chewedToy = InjectorDefault<Value>(\"rope\")", "static var defaultToy: Value {",
            "static var defaultChewedToy: Value {", "return toy.value", "toy.value = newValue",
            "return chewedToy.value", "chewedToy.value = newValue", "extension ToyTrait: TraitKey {}",
            "static var defaultValue: ToyInjector.Value { return ToyInjector.defaultToy }",
            "var defaultToy: ToyInjector.Value { get }",
            "var defaultToy: ToyInjector.Value { return ToyInjector.defaultToy }",
            "var toy: ToyInjector.Value {", "return trait(ToyTrait.self, orDefaultTo: defaultToy)",
            "setTrait(ToyTrait.self, to: newValue)",
        ]
        for suffix in mapped {
            let uses = lines.indices.filter { lines[$0].hasSuffix(suffix) }
            #expect(!uses.isEmpty, "\(suffix)")
            for index in uses {
                let number = suffix.contains("hewed") ? 3 : 2
                #expect(
                    lines[index - 1] == "#sourceLocation(file:\"/app/Sources/App/T.traits\",line:\(number))",
                    "\(suffix)")
            }
        }
        // Mappings end: after the last one, nothing more is attributed to the .traits file.
        #expect(lines.last { $0.hasPrefix("#sourceLocation") } == "#sourceLocation()")
    }

    @Test("A settable trait gets a mutating setter and a nonmutating one for classes")
    func settableHasBothSetters() throws {
        let generated = try TraitGenerator.generate(from: "trait toy: String = \"ball\"", path: "T.traits")
        let setter = [
            "#sourceLocation(file:\"T.traits\",line:1)", "setTrait(ToyTrait.self, to: newValue)", "#sourceLocation()",
        ].map { "            " + $0 + "\n" }.joined()
        #expect(generated.contains("        set {\n" + setter))
        #expect(generated.contains("extension ToyInjected where Self: AnyObject {"))
        #expect(generated.contains("        nonmutating set {\n" + setter))
    }

    @Test("Access levels reach every generated declaration; imports are as visible as the widest trait")
    func accessLevels() throws {
        let generated = try TraitGenerator.generate(
            from: "import Foundation\npublic trait id: UUID = UUID()",
            path: "I.traits"
        )
        func foundation(_ keyword: String) -> String {
            "#sourceLocation(file:\"I.traits\",line:1)\n\(keyword) Foundation\n#sourceLocation()\n"
        }
        #expect(
            generated.contains(
                "#if hasFeature(InternalImportsByDefault)\npublic import TraitInjection\n" + foundation("public import")
                    + "#else\nimport TraitInjection\n" + foundation("import") + "#endif\n"))
        #expect(generated.contains("public struct IdInjector {"))
        #expect(generated.contains("public protocol IdInjected: Injected {"))
        #expect(generated.contains(" */ public typealias Value = UUID\n"))
        #expect(generated.contains(" */ public var id: IdInjector.Value {"))
        let internalOnly = try TraitGenerator.generate(from: "trait id: Int = 0", path: "I.traits")
        #expect(internalOnly.contains("\nimport TraitInjection\n"))
        #expect(!internalOnly.contains("#if"))
        #expect(internalOnly.contains("\nstruct IdInjector {"))
        let packageOnly = try TraitGenerator.generate(
            from: "internal import Foundation\npackage trait id: UUID = UUID()",
            path: "I.traits"
        )
        #expect(packageOnly.contains("#if hasFeature(InternalImportsByDefault)\npackage import TraitInjection\n"))
        #expect(packageOnly.contains("\ninternal import Foundation\n"))
        #expect(packageOnly.contains("#else\nimport TraitInjection\n"))
    }
}
