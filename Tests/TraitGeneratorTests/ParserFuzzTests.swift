import Testing
import TraitGenerator

/// A small seeded generator (SplitMix64), so that a failing input can be reproduced.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Parsing .traits files: random and mutated inputs")
struct ParserFuzzTests {
    static let realistic = """
        # Pets
        import Foundation  # dates
        trait pet: Pet = Pet(name: "Rover", species: "Dog")
        public readonly trait serial: Int = 0   # options
        trait catchphrase: String = "a # b"
            default comical = "'Tis but a scratch!"
            default serious = #"raw "text""#
        package trait tags: [String: Int] = ["a": 1, "b": (2)]
        """

    static let fragments = [
        "trait", "public", "package", "internal", "readonly", "import", "default", "pet", "Pet", "_x", "Type",
        ":", "=", "==", "\"", "#", "# c", "#\"", "\"#", "(", ")", "[", "]", "{", "}", "\\", " ", "  ", "\t", "\r",
        "\r\n", "\n", "\u{FEFF}", "é", "🐶", "0", "Int", "String", "[String: Int]", "Pet()", "\"x\"", ",", ".",
    ]

    /// Checks that parsing `text` either succeeds, with traits the generator renders, or reports
    /// problems that each point into the text.
    ///
    /// - Returns: Whether the text parsed.
    @discardableResult
    static func check(_ text: String, _ label: String) -> Bool {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        do {
            let file = try TraitFileParser(path: "F.traits").parse(text)
            #expect(!file.traits.isEmpty, "\(label): parsed with no trait")
            let swift = TraitGenerator.generate(file, path: "F.traits")
            for trait in file.traits {
                let injector = "\(trait.name.prefix(1).uppercased())\(trait.name.dropFirst())Injector"
                #expect(swift.contains(injector), "\(label)")
            }
            return true
        } catch {
            #expect(!error.diagnostics.isEmpty, "\(label): failed with no diagnostic")
            for diagnostic in error.diagnostics {
                let inRange = (1...max(lines.count, 1)).contains(diagnostic.line) && diagnostic.column >= 1
                #expect(inRange, "\(label): \(diagnostic) points outside the text")
                if inRange, diagnostic.line <= lines.count {
                    #expect(diagnostic.column <= lines[diagnostic.line - 1].count + 1, "\(label): \(diagnostic)")
                }
                #expect(!diagnostic.message.isEmpty, "\(label)")
            }
            return false
        }
    }

    @Test("5,000 random token lines: a located error or Swift for every trait, never a crash")
    func randomInputs() async {
        var random = SeededRandom(state: 13)
        for round in 0..<5_000 {
            // Seconds of work: let the cooperative pool's other jobs in now and then.
            if round.isMultiple(of: 100) { await Task.yield() }
            let count = Int.random(in: 1...24, using: &random)
            let text = (0..<count).map { _ in Self.fragments.randomElement(using: &random)! }.joined()
            Self.check(text, "random input \(round): \(text.debugDescription)")
        }
    }

    @Test("5,000 mutations of a realistic file: a located error or Swift for every trait, never a crash")
    func mutatedInputs() async {
        var random = SeededRandom(state: 14)
        let original = Array(Self.realistic)
        var parsed = 0
        for round in 0..<5_000 {
            // Seconds of work: let the cooperative pool's other jobs in now and then.
            if round.isMultiple(of: 100) { await Task.yield() }
            var characters = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<characters.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: characters.remove(at: index)
                case 1: characters.insert(contentsOf: Array(Self.fragments.randomElement(using: &random)!), at: index)
                default: characters.swapAt(index, Int.random(in: 0..<characters.count, using: &random))
                }
                if characters.isEmpty { characters = ["#"] }
            }
            let text = String(characters)
            if Self.check(text, "mutation \(round): \(text.debugDescription)") { parsed += 1 }
        }
        // Both outcomes occur: the mutations reach the error paths and leave valid files too.
        #expect(parsed > 100 && parsed < 4_900)
    }
}
