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

    /// Everything up to the first `=` outside brackets and string literals.
    mutating func readToTopLevelEquals() -> String {
        let start = position
        var depth = 0
        var inString = false
        while position < characters.count {
            let character = characters[position]
            if inString {
                if character == "\\" { position += 1 } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if "([{".contains(character) {
                depth += 1
            } else if ")]}".contains(character) {
                depth -= 1
            } else if character == "=", depth == 0 {
                break
            }
            position += 1
        }
        return String(characters[start..<min(position, characters.count)])
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

    /// The 1-based column where `text` first starts in the line.
    func column(of text: String) -> Int? {
        let needle = Array(text)
        guard !needle.isEmpty, needle.count <= characters.count else { return nil }
        for start in 0...(characters.count - needle.count)
        where Array(characters[start..<start + needle.count]) == needle {
            return start + 1
        }
        return nil
    }
}

extension Character {
    var isIdentifierCharacter: Bool { isLetter || isNumber || self == "_" }
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
        guard let first, first.isLetter || first == "_" else { return false }
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
