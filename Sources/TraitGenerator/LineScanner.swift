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

extension LineScanner {
    /// `line` without its trailing comment: a `#` outside string literals that starts the line or
    /// follows whitespace, and is followed by whitespace or the end of the line. A `#` inside a
    /// string (`"#1"`, `#"raw # text"#`) or starting a Swift expression (`#file`, `#"raw"#`) is
    /// kept.
    static func removingComment(from line: [Character]) -> [Character] {
        var position = 0
        while position < line.count {
            let character = line[position]
            if character == "\"" {
                position = Self.endOfString(in: line, from: position + 1, hashes: 0)
                continue
            }
            if character == "#" {
                var hashes = 0
                while position + hashes < line.count, line[position + hashes] == "#" { hashes += 1 }
                if position + hashes < line.count, line[position + hashes] == "\"" {
                    position = Self.endOfString(in: line, from: position + hashes + 1, hashes: hashes)
                    continue
                }
                let followsSpace = position == 0 || line[position - 1].isWhitespace
                let endsWord = position + 1 == line.count || line[position + 1].isWhitespace
                if followsSpace && endsWord { return Array(line[..<position]) }
            }
            position += 1
        }
        return line
    }

    /// The position just past the string literal whose contents start at `start`, closed by `"`
    /// and `hashes` `#` signs (a raw string's); the end of the line if it is not closed there.
    private static func endOfString(in line: [Character], from start: Int, hashes: Int) -> Int {
        var position = start
        while position < line.count {
            if hashes == 0, line[position] == "\\" {
                position += 2
                continue
            }
            if line[position] == "\"" {
                let closing = position + 1 + hashes
                if closing <= line.count, line[(position + 1)..<closing].allSatisfy({ $0 == "#" }) { return closing }
            }
            position += 1
        }
        return line.count
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
