/// Checks that a type or a default expression from a `.traits` line is self-contained Swift.
///
/// The generated code puts each of them on a line of its own, between other code and the
/// `#sourceLocation` directives that map that line back to the `.traits` file. A string, bracket
/// or block comment left open there, a `//` comment, or a compiler directive would swallow or
/// break the generated lines after it, and the compiler would report errors in code the user never
/// wrote. Anything else — a wrong type, a typo — is left to the compiler, which reports it on the
/// `.traits` line.
enum SwiftFragment {
    /// The first problem in `text`, which starts at 1-based `column` of its line: the column of the
    /// offending character and a message about `subject` (such as "the default of trait 'pet'").
    static func problem(in text: String, column: Int, subject: String) -> (column: Int, message: String)? {
        var scanner = Scanner(characters: Array(text))
        guard let (offset, problem) = scanner.scanCode(until: nil) else { return nil }
        return (column + offset, "\(problem.message(for: subject))")
    }

    /// If a string literal (plain or raw, with its interpolations) or a `/* … */` comment starts at
    /// `position` of `characters`, the position just past it (the end of the line if it is not
    /// closed there); otherwise nil.
    static func endOfLiteralOrComment(in characters: [Character], at position: Int) -> Int? {
        var scanner = Scanner(characters: characters, position: position)
        var hashes = 0
        while scanner.peek(hashes) == "#" { hashes += 1 }
        if scanner.peek(hashes) == "\"" {
            scanner.position += hashes
            if scanner.scanString(hashes: hashes) != nil { return characters.count }
            return scanner.position
        }
        if scanner.peek() == "/", scanner.peek(1) == "*" {
            if scanner.skipBlockComment() != nil { return characters.count }
            return scanner.position
        }
        return nil
    }

    enum Problem {
        case unterminatedString, multilineString, unterminatedComment, lineComment
        case directive(String)
        case unclosed(Character)
        case unopened(Character)

        func message(for subject: String) -> String {
            switch self {
            case .unterminatedString:
                "unterminated string literal in \(subject); close it on the same line"
            case .multilineString:
                "a multi-line string literal cannot be \(subject), which must fit on its line; "
                    + "write a one-line string with \\n"
            case .unterminatedComment:
                "'/*' comment in \(subject) is not closed on its line"
            case .lineComment:
                "'//' in \(subject) would comment out the generated code after it; "
                    + "a .traits comment starts with '#' after a space"
            case .directive(let name):
                "compiler directive '#\(name)' cannot appear in \(subject)"
            case .unclosed(let opener):
                "'\(opener)' in \(subject) is not closed on its line"
            case .unopened(let closer):
                "'\(closer)' in \(subject) closes nothing opened before it on its line"
            }
        }
    }

    private struct Scanner {
        let characters: [Character]
        var position = 0

        func peek(_ offset: Int = 0) -> Character? {
            position + offset < characters.count ? characters[position + offset] : nil
        }

        /// Scans code up to `closer` (consumed), or to the end of the line if `closer` is nil.
        mutating func scanCode(until closer: Character?) -> (Int, Problem)? {
            var open: [(Character, Int)] = []
            while let character = peek() {
                let start = position
                switch character {
                case "\"":
                    if let problem = scanString(hashes: 0) { return problem }
                    continue
                case "#":
                    var hashes = 0
                    while peek(hashes) == "#" { hashes += 1 }
                    if peek(hashes) == "\"" {
                        position += hashes
                        if let problem = scanString(hashes: hashes) { return problem }
                        continue
                    }
                    var end = position + 1
                    while end < characters.count, characters[end].isIdentifierCharacter { end += 1 }
                    let name = String(characters[(position + 1)..<end])
                    if ["if", "else", "elseif", "endif", "sourceLocation"].contains(name) {
                        return (start, .directive(name))
                    }
                    position = max(end, position + 1)
                    continue
                case "/" where peek(1) == "/":
                    return (start, .lineComment)
                case "/" where peek(1) == "*":
                    if let problem = skipBlockComment() { return problem }
                    continue
                case "(", "[", "{":
                    open.append((character, start))
                case ")", "]", "}":
                    if let (opener, _) = open.last, Self.closer(of: opener) == character {
                        open.removeLast()
                    } else if open.isEmpty, character == closer {
                        position += 1
                        return nil
                    } else {
                        return (start, .unopened(character))
                    }
                default:
                    break
                }
                position += 1
            }
            if let (opener, column) = open.first { return (column, .unclosed(opener)) }
            // An interpolation's `(` that the line never closes.
            if closer != nil { return (characters.count, .unclosed("(")) }
            return nil
        }

        /// Scans a string literal whose opening quote (after `hashes` `#`s) is at `position`.
        mutating func scanString(hashes: Int) -> (Int, Problem)? {
            let start = position - hashes
            if peek(1) == "\"", peek(2) == "\"" { return (start, .multilineString) }
            position += 1
            while let character = peek() {
                if character == "\\", (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                    position += 1 + hashes
                    if peek() == "(" {
                        position += 1
                        if let problem = scanCode(until: ")") { return problem }
                        continue
                    }
                    position += 1
                    continue
                }
                if character == "\"", (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                    position += 1 + hashes
                    return nil
                }
                position += 1
            }
            return (start, .unterminatedString)
        }

        /// Skips a `/* … */` comment, which may nest, starting at `position`.
        mutating func skipBlockComment() -> (Int, Problem)? {
            let start = position
            var depth = 0
            while let character = peek() {
                if character == "/", peek(1) == "*" {
                    depth += 1
                    position += 2
                } else if character == "*", peek(1) == "/" {
                    depth -= 1
                    position += 2
                    if depth == 0 { return nil }
                } else {
                    position += 1
                }
            }
            return (start, .unterminatedComment)
        }

        static func closer(of opener: Character) -> Character {
            switch opener {
            case "(": ")"
            case "[": "]"
            default: "}"
            }
        }
    }
}
