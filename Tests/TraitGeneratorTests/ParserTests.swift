import Testing
import TraitGenerator

@Suite("Parsing .traits files")
struct ParserTests {
    func parse(_ text: String) throws(TraitDiagnostics) -> TraitFile {
        try TraitFileParser(path: "Pets.traits").parse(text)
    }

    @Test("A full declaration: options, type, default, named defaults, imports and comments")
    func fullDeclaration() throws {
        let file = try parse(
            """
            # A comment
            import Foundation

            public readonly trait catchphrase: [String: Int] = ["a": 1] # options: public, readonly
                default comical = "'Tis = a scratch!"
            trait pet: Pet = Pet(name: "Rover", species: "Dog")
            """
        )
        #expect(file.imports == [TraitImport(module: "Foundation", line: 2)])
        #expect(
            file.traits == [
                TraitDeclaration(
                    name: "catchphrase",
                    type: "[String: Int]",
                    defaultExpression: "[\"a\": 1]",
                    access: .public,
                    isReadOnly: true,
                    namedDefaults: [.init(name: "comical", expression: "\"'Tis = a scratch!\"", line: 5)],
                    line: 4
                ),
                TraitDeclaration(
                    name: "pet",
                    type: "Pet",
                    defaultExpression: "Pet(name: \"Rover\", species: \"Dog\")",
                    line: 6
                ),
            ]
        )
    }

    @Test("An import may carry an access level and @preconcurrency, kept for the generated import")
    func importAccessLevels() throws {
        let file = try parse(
            """
            internal import Foundation
            package import Dispatch
            import Synchronization  # no level: as visible as the file's traits
            @preconcurrency public import Combine
            public trait id: UUID = UUID()
            """
        )
        #expect(
            file.imports == [
                TraitImport(module: "Foundation", access: .internal, line: 1),
                TraitImport(module: "Dispatch", access: .package, line: 2),
                TraitImport(module: "Synchronization", line: 3),
                TraitImport(module: "Combine", access: .public, isPreconcurrency: true, line: 4),
            ])
        let generated = try TraitGenerator.generate(
            from: "@preconcurrency import Dispatch\ntrait n: Int = 1", path: "D")
        #expect(generated.contains("\n@preconcurrency import Dispatch\n"))
    }

    @Test("Strings with interpolations and raw strings, block comments, brackets and macros are kept whole")
    func wellFormedFragments() throws {
        let file = try parse(
            ##"""
            trait tag: String = "a \("b (") c" + #"raw \#("x") " \ "# /* a (comment */ + "\(["]": 1][ "]" ]!)"
            trait origin: [String: (Int, Int)] = [#file: (#line, #column)]
            trait spaced: String = "\(" # ")" /* # */  # a comment
            trait typed: Int /* = */ = 1
            """##
        )
        #expect(
            file.traits.map(\.defaultExpression) == [
                ##""a \("b (") c" + #"raw \#("x") " \ "# /* a (comment */ + "\(["]": 1][ "]" ]!)""##,
                "[#file: (#line, #column)]",
                #""\(" # ")" /* # */"#,
                "1",
            ])
        #expect(file.traits.last?.type == "Int /* = */")
    }

    @Test("Trailing comments on every kind of line; a '#' in a string or starting an expression is kept")
    func trailingComments() throws {
        let file = try parse(
            """
            import Foundation  # for Date
            trait tag: String = "#1 # not a comment"   # the tag
                default other = #"raw # text"#  # a raw string
                default third = "a \\"quoted\\" # still a string" #
            trait origin: String = #file # where it was declared
            trait count: Int = 1 #not a comment: no space after '#', left for the compiler
            """
        )
        #expect(file.imports.map(\.module) == ["Foundation"])
        #expect(
            file.traits.map(\.defaultExpression) == [
                "\"#1 # not a comment\"", "#file", "1 #not a comment: no space after '#', left for the compiler",
            ])
        #expect(
            file.traits[0].namedDefaults.map(\.expression) == [
                "#\"raw # text\"#", "\"a \\\"quoted\\\" # still a string\"",
            ])
    }

    /// Each bad input, the diagnostic it must produce.
    static let badInputs: [(String, String)] = [
        (
            "",
            "Pets.traits:1:1: error: no trait declared; expected a line such as 'trait pet: Pet = Pet(name: \"Rover\")'"
        ),
        (
            "# only a comment\n",
            "Pets.traits:1:1: error: no trait declared; expected a line such as 'trait pet: Pet = Pet(name: \"Rover\")'"
        ),
        (
            "publik trait pet: Pet = Pet()",
            "Pets.traits:1:1: error: unknown or repeated option 'publik'; expected one of public, package, internal, readonly before 'trait'"
        ),
        (
            "trait pet = Pet()",
            "Pets.traits:1:10: error: missing ':' after trait 'pet'; expected 'trait pet: Type = default'"
        ),
        (
            "trait pet Int = 0",
            "Pets.traits:1:10: error: missing ':' after trait 'pet'; expected 'trait pet: Type = default'"
        ),
        (
            "trait   = 0",
            "Pets.traits:1:9: error: missing name and type for the trait; expected 'trait name: Type = default'"
        ),
        (
            "trait pet: = Pet()",
            "Pets.traits:1:12: error: missing type for trait 'pet'; expected 'trait pet: Type = default'"
        ),
        (
            "trait pet: Pet",
            "Pets.traits:1:15: error: missing default value for trait 'pet'; expected '= expression' after 'Pet'"
        ),
        (
            "trait pet: Pet = Pet()\n\ntrait pet: Pet = Pet()",
            "Pets.traits:3:7: error: duplicate trait 'pet'; it is already declared on line 1"
        ),
        (
            "trait my-pet: Pet = Pet()",
            "Pets.traits:1:7: error: 'my-pet' is not a valid Swift identifier; a trait name is a property name, such as 'pet'"
        ),
        (
            "trait 2pets: Pet = Pet()",
            "Pets.traits:1:7: error: '2pets' is not a valid Swift identifier; a trait name is a property name, such as 'pet'"
        ),
        (
            "    default comical = \"x\"",
            "Pets.traits:1:5: error: a 'default' line must follow the trait it belongs to"
        ),
        (
            "pet: Pet = Pet()",
            "Pets.traits:1:1: error: expected 'trait', 'import', an indented 'default' or a '#' comment"
        ),
        (
            "trait Type: Int = 0",
            "Pets.traits:1:7: error: 'Type' cannot name a property or a static member in Swift; choose another name"
        ),
        (
            "trait self: Int = 0",
            "Pets.traits:1:7: error: 'self' is not a valid Swift identifier; a trait name is a property name, such as 'pet'"
        ),
        (
            "trait precedencegroup: Int = 0",
            "Pets.traits:1:7: error: 'precedencegroup' cannot name a property or a static member in Swift; choose another name"
        ),
        (
            "trait _pet: Pet = Pet()",
            "Pets.traits:1:7: error: '_pet' starts with '_', which the generated names (default_pet, _petInjector) would carry into the middle of an identifier; name it 'pet'"
        ),
        (
            "trait pet: Pet = Pet()\ntrait Pet: Pet = Pet()",
            "Pets.traits:2:7: error: trait 'Pet' generates the same names as trait 'pet' on line 1 (PetInjector, PetTrait, PetInjected); rename one"
        ),
        (
            "trait mood: String = \"a\"\n    default calm = \"b\"\n    default Calm = \"c\"",
            "Pets.traits:3:13: error: default 'Calm' generates 'MoodInjector.defaultCalmMood', which default 'calm' generates too; rename one"
        ),
        (
            "trait a: Int = 1\n    default x = 2\n    default defaultX = 3",
            "Pets.traits:3:13: error: default 'defaultX' generates 'AInjector.defaultXA', which default 'x' generates too; rename one"
        ),
        (
            "internal import TraitInjection\npublic trait count: Int = 1",
            "Pets.traits:1:1: error: 'internal import TraitInjection' hides the types that public trait 'count' (line 2) exposes; write 'public import TraitInjection' or remove the line"
        ),
        (
            "trait count: Int) = 1",
            "Pets.traits:1:17: error: ')' in the type of trait 'count' closes nothing opened before it on its line"
        ),
        (
            "trait newValue: Int = 1",
            "Pets.traits:1:7: error: 'newValue' is a name the generated injector uses itself (its Value type, its setters' newValue, InjectorDefault); choose another name"
        ),
        (
            "readonly trait read: Int = 1\nreadonly trait read: Int = 2",
            "Pets.traits:2:16: error: duplicate trait 'read'; it is already declared on line 1"
        ),
        (
            "trait aⸯ: Int = 1",
            "Pets.traits:1:7: error: 'aⸯ' is not a valid Swift identifier; a trait name is a property name, such as 'pet'"
        ),
        (
            "# page\u{0C}\ntrait count: Int = 1\u{0B}\n    default x = (",
            "Pets.traits:3:17: error: '(' in default 'x' is not closed on its line"
        ),
        // What would leak past its generated line, where the compiler would report it in generated code.
        (
            "trait tag: String = \"abc",
            "Pets.traits:1:21: error: unterminated string literal in the default of trait 'tag'; close it on the same line"
        ),
        (
            "trait tag: String = \"\"\"",
            "Pets.traits:1:21: error: a multi-line string literal cannot be the default of trait 'tag', which must fit on its line; write a one-line string with \\n"
        ),
        (
            "trait count: Int = 1 // one",
            "Pets.traits:1:22: error: '//' in the default of trait 'count' would comment out the generated code after it; a .traits comment starts with '#' after a space"
        ),
        (
            "trait count: Int = 1 /* one",
            "Pets.traits:1:22: error: '/*' comment in the default of trait 'count' is not closed on its line"
        ),
        (
            "trait count: Int = max(1, 2",
            "Pets.traits:1:23: error: '(' in the default of trait 'count' is not closed on its line"
        ),
        (
            "trait count: Int = 1 )",
            "Pets.traits:1:22: error: ')' in the default of trait 'count' closes nothing opened before it on its line"
        ),
        (
            "trait names: [String = []",
            "Pets.traits:1:14: error: '[' in the type of trait 'names' is not closed on its line"
        ),
        (
            "trait count: Int = 1\n    default two = { #if DEBUG 2 }()",
            "Pets.traits:2:21: error: compiler directive '#if' cannot appear in default 'two'"
        ),
        (
            "trait tag: String = \"\\(\"a\"\"",
            "Pets.traits:1:27: error: unterminated string literal in the default of trait 'tag'; close it on the same line"
        ),
    ]

    @Test("Bad input gets a compiler-style diagnostic naming what is wrong and what was expected", arguments: badInputs)
    func diagnostics(input: String, expected: String) {
        #expect(throws: TraitDiagnostics.self) { try parse(input) }
        do {
            _ = try parse(input)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test("Every problem in a file is reported, not just the first")
    func allProblemsAtOnce() {
        do {
            _ = try parse("trait a: Int = 1\ntrait b-c: Int = 2\ntrait a: Int = 3")
            Issue.record("expected diagnostics")
        } catch {
            #expect(error.diagnostics.map(\.line) == [2, 3])
        }
    }
}
