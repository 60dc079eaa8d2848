import Testing
import TraitGenerator

@Suite("Reading .traits files: line ends, byte-order marks, tabs and bad bytes")
struct LineEndingTests {
    static let lines = [
        "# traits",
        "trait catchphrase: String = \"a\"  # the default",
        "\tdefault serious = \"b\"",
        "trait serial: Int = 0",
    ]

    static func parsed(_ text: String) throws -> TraitFile {
        try TraitFileParser(path: "Pets.traits").parse(text)
    }

    @Test(
        "LF, CRLF and CR line ends, with or without a last newline, and a byte-order mark, read alike",
        arguments: ["\n", "\r\n", "\r"]
    )
    func lineEnds(_ end: String) throws {
        let expected = try Self.parsed(Self.lines.joined(separator: "\n") + "\n")
        #expect(expected.traits.map(\.name) == ["catchphrase", "serial"])
        #expect(expected.traits[0].namedDefaults.map(\.name) == ["serious"])
        for text in [
            Self.lines.joined(separator: end) + end,
            Self.lines.joined(separator: end),
            "\u{FEFF}" + Self.lines.joined(separator: end) + end,
        ] {
            #expect(try Self.parsed(text) == expected)
        }
    }

    @Test("A problem on a CRLF line is reported at its line and column")
    func crlfDiagnostic() {
        #expect {
            try Self.parsed("trait a: Int = 1\r\ntrait b = 2\r\n")
        } throws: { error in
            (error as? TraitDiagnostics)?.description
                == "Pets.traits:2:8: error: missing ':' after trait 'b'; expected 'trait b: Type = default'"
        }
    }

    @Test("UTF-8 bytes decode, a byte-order mark included; a bad byte is reported at its line and column")
    func decoding() throws {
        let text = "trait pet: String = \"Médor\"\n"
        #expect(try TraitGenerator.decode(Array(text.utf8), path: "Pets.traits") == text)
        let marked = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        #expect(try TraitGenerator.decode(marked, path: "Pets.traits") == "\u{FEFF}" + text)
        let bad = Array("trait a: Int = 1\ntrait é: String = \"x".utf8) + [0xFF, 0x22]
        let badAfterCR = Array("trait a: Int = 1\rtrait é: String = \"x".utf8) + [0xFF, 0x22]
        #expect {
            try TraitGenerator.decode(badAfterCR, path: "Pets.traits")
        } throws: { error in
            (error as? TraitDiagnostics)?.diagnostics.map { [$0.line, $0.column] } == [[2, 21]]
        }
        #expect {
            try TraitGenerator.decode(bad, path: "Pets.traits")
        } throws: { error in
            (error as? TraitDiagnostics)?.description
                == "Pets.traits:2:21: error: the file is not valid UTF-8 here (0xFF); save it as UTF-8"
        }
    }
}
