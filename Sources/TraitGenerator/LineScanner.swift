/// A cursor over one line of a `.traits` file, with 1-based columns for diagnostics.
struct LineScanner {
    let characters: [Character]
    var position: Int

    /// The 1-based column of the next character, after any whitespace.
    var column: Int {
        var copy = self
        copy.skipWhitespace()
        return copy.position + 1
    }

    mutating func skipWhitespace() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }

    func peekWord() -> String? {
        var copy = self
        return copy.readWord()
    }

    /// The next run of identifier characters, if any.
    mutating func readWord() -> String? {
        skipWhitespace()
        let start = position
        while position < characters.count, characters[position].isIdentifierCharacter { position += 1 }
        guard position > start else { return nil }
        return String(characters[start..<position])
    }

    func restContainsWord(_ word: String) -> Bool {
        var copy = self
        while copy.position < copy.characters.count {
            if copy.readWord() == word { return true }
            if copy.position < copy.characters.count, !copy.characters[copy.position].isIdentifierCharacter {
                copy.position += 1
            }
        }
        return false
    }

    /// Everything up to (not including) `delimiter` or the end of the line.
    mutating func read(upTo delimiter: Character) -> String {
        let start = position
        while position < characters.count, characters[position] != delimiter { position += 1 }
        return String(characters[start..<position])
    }

    /// Everything up to the first `=` outside brackets, string literals and comments (or after a
    /// stray closing bracket, which the type's own check then reports).
    mutating func readToTopLevelEquals() -> String {
        let start = position
        var depth = 0
        while position < characters.count {
            if let end = SwiftFragment.endOfLiteralOrComment(in: characters, at: position) {
                position = end
                continue
            }
            let character = characters[position]
            if "([{".contains(character) {
                depth += 1
            } else if ")]}".contains(character) {
                depth -= 1
            } else if character == "=", depth <= 0 {
                break
            }
            position += 1
        }
        return String(characters[start..<min(position, characters.count)])
    }

    /// Skips whitespace and `@name`, if it comes next.
    mutating func skipAttribute(_ name: String) -> Bool {
        var copy = self
        guard copy.skip("@"), copy.readWord() == name else { return false }
        self = copy
        return true
    }

    /// Skips whitespace and `character`, if it comes next.
    mutating func skip(_ character: Character) -> Bool {
        skipWhitespace()
        guard position < characters.count, characters[position] == character else { return false }
        position += 1
        return true
    }

    /// The rest of the line, trimmed.
    mutating func rest() -> String {
        defer { position = characters.count }
        return String(characters[min(position, characters.count)...]).trimmingWhitespace()
    }
}

extension LineScanner {
    /// `line` without its trailing comment: a `#` that starts the line or follows whitespace, and is
    /// followed by whitespace or the end of the line, outside string literals (their interpolations
    /// included) and `/* … */` comments. A `#` inside a string (`"#1"`, `#"raw # text"#`) or starting
    /// a Swift expression (`#file`, `#"raw"#`) is kept.
    static func removingComment(from line: [Character]) -> [Character] {
        var position = 0
        while position < line.count {
            if let end = SwiftFragment.endOfLiteralOrComment(in: line, at: position) {
                position = end
                continue
            }
            if line[position] == "#" {
                let followsSpace = position == 0 || line[position - 1].isWhitespace
                let endsWord = position + 1 == line.count || line[position + 1].isWhitespace
                if followsSpace && endsWord { return Array(line[..<position]) }
            }
            position += 1
        }
        return line
    }
}

extension Character {
    /// A character Swift allows after the first of an identifier: `_`, an ASCII letter or digit, or
    /// a Unicode identifier character (`XID_Continue`, which leaves out symbols and punctuation that
    /// `isLetter` lets through, such as U+2E2F).
    var isIdentifierCharacter: Bool {
        self == "_" || (isASCII ? isLetter || isNumber : unicodeScalars.allSatisfy(\.properties.isXIDContinue))
    }

    /// A character Swift allows first in an identifier.
    var isIdentifierHead: Bool {
        self == "_"
            || (isASCII ? isLetter : unicodeScalars.first?.properties.isXIDStart == true && isIdentifierCharacter)
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }).trimmingTrailingWhitespace()
    }

    func trimmingTrailingWhitespace() -> String {
        var result = String(self)
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }

    /// Whether this is a plain Swift identifier that needs no backticks.
    var isSwiftIdentifier: Bool {
        guard let first, first.isIdentifierHead else { return false }
        return allSatisfy(\.isIdentifierCharacter) && !swiftKeywords.contains(String(self))
    }
}

private let swiftKeywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
    "inout", "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static",
    "struct", "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
    "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any",
    "catch", "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "package",
]
