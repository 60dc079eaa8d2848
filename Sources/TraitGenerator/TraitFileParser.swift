/// Reads the `.traits` declaration format.
///
/// ```
/// # Comments start with '#'.
/// import Foundation                       # extra modules the generated code imports; an access
///                                         # level may come first (internal import Foundation),
///                                         # and @preconcurrency before it
///
/// trait pet: Pet = Pet(name: "Rover", species: "Dog")
/// public readonly trait serial: Int = 0   # options: public | package | internal, readonly
/// trait catchphrase: String = "..."
///     default comical = "'Tis but a scratch!"      # extra named defaults, indented
///     default serious = "I think, therefore I am"
/// ```
///
/// Every problem is reported, each with its line and column, as ``TraitDiagnostics``.
package struct TraitFileParser: Sendable {
    /// The path used in diagnostics.
    package var path: String

    package init(path: String) {
        self.path = path
    }

    /// Parses `text`, or throws every problem found in it.
    package func parse(_ text: String) throws(TraitDiagnostics) -> TraitFile {
        var file = TraitFile(traits: [])
        var diagnostics: [TraitDiagnostic] = []
        var firstLines: [String: Int] = [:]
        /// The trait that first produced each generated name stem (`Pet` for `pet`), and its line.
        var generatedNames: [String: (String, Int)] = [:]

        func report(_ line: Int, _ column: Int, _ message: String) {
            diagnostics.append(TraitDiagnostic(path: path, line: line, column: column, message: message))
        }

        // LF, CRLF or CR line ends; a UTF-8 byte-order mark is not part of the first line.
        let body = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        // Only what Swift and editors count as line ends (not a form feed, a vertical tab or U+2028),
        // so that line numbers agree with the compiler's.
        let lines = body.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (index, rawLine) in lines.enumerated() {
            let number = index + 1
            let line = Array(String(LineScanner.removingComment(from: Array(rawLine))).trimmingTrailingWhitespace())
            guard let start = line.firstIndex(where: { !$0.isWhitespace }), line[start] != "#" else { continue }
            let scanner = LineScanner(characters: line, position: start)

            if start > line.startIndex {
                parseNamedDefault(scanner, line: number, into: &file, report: report)
                continue
            }
            if Self.isImport(scanner) {
                parseImport(scanner, line: number, into: &file, report: report)
                continue
            }
            guard let (trait, nameColumn) = parseTrait(scanner, line: number, report: report) else { continue }
            if let first = firstLines[trait.name] {
                report(
                    number, nameColumn,
                    "duplicate trait '\(trait.name)'; it is already declared on line \(first)")
                continue
            }
            let generated = trait.name.uppercasingFirstLetter
            if let (other, first) = generatedNames[generated] {
                report(
                    number, nameColumn,
                    "trait '\(trait.name)' generates the same names as trait '\(other)' on line \(first) "
                        + "(\(generated)Injector, \(generated)Trait, \(generated)Injected); rename one")
                continue
            }
            firstLines[trait.name] = number
            generatedNames[generated] = (trait.name, number)
            file.traits.append(trait)
        }
        // The generated declarations use TraitInjection's types as visibly as the most visible trait.
        if let widest = file.traits.max(by: { $0.access < $1.access }),
            let own = file.imports.first(where: { $0.module == "TraitInjection" }), let level = own.access,
            level < widest.access
        {
            report(
                own.line, 1,
                "'\(level.rawValue) import TraitInjection' hides the types that \(widest.access.rawValue) trait "
                    + "'\(widest.name)' (line \(widest.line)) exposes; write '\(widest.access.rawValue) import TraitInjection' "
                    + "or remove the line")
        }
        if file.traits.isEmpty && diagnostics.isEmpty {
            report(1, 1, "no trait declared; expected a line such as 'trait pet: Pet = Pet(name: \"Rover\")'")
        }
        guard diagnostics.isEmpty else { throw TraitDiagnostics(diagnostics) }
        return file
    }

    /// Why `name`, a valid identifier, cannot name a trait: it would make the generated Swift
    /// invalid or unreadable. `nil` if it can.
    static func generatedNameProblem(_ name: String) -> String? {
        if name.hasPrefix("_") {
            let plain = String(name.drop { $0 == "_" })
            let suggestion = plain.isEmpty || !plain.isSwiftIdentifier ? "pet" : plain
            return "'\(name)' starts with '_', which the generated names (default\(name), \(name)Injector) "
                + "would carry into the middle of an identifier; name it '\(suggestion)'"
        }
        if ["Value", "newValue", "InjectorDefault"].contains(name) {
            return "'\(name)' is a name the generated injector uses itself (its Value type, its setters' "
                + "newValue, InjectorDefault); choose another name"
        }
        if reservedMemberNames.contains(name) {
            return "'\(name)' cannot name a property or a static member in Swift; choose another name"
        }
        return nil
    }

    /// Whether the line is `import Module`, perhaps after `@preconcurrency` and an access level.
    private static func isImport(_ scanner: LineScanner) -> Bool {
        var scanner = scanner
        _ = scanner.skipAttribute("preconcurrency")
        let first = scanner.readWord()
        return first == "import"
            || (first.flatMap(TraitDeclaration.Access.init) != nil && scanner.readWord() == "import")
    }

    private func parseImport(
        _ scanner: LineScanner,
        line: Int,
        into file: inout TraitFile,
        report: (Int, Int, String) -> Void
    ) {
        var scanner = scanner
        let isPreconcurrency = scanner.skipAttribute("preconcurrency")
        let access = scanner.readWord().flatMap(TraitDeclaration.Access.init)
        if access != nil { _ = scanner.readWord() }
        let column = scanner.column
        let module = scanner.rest()
        guard !module.isEmpty, module.split(separator: ".").allSatisfy({ String($0).isSwiftIdentifier }) else {
            report(line, column, "expected a module name after 'import', such as 'import Foundation'")
            return
        }
        file.imports.append(TraitImport(module: module, access: access, isPreconcurrency: isPreconcurrency, line: line))
    }

    private func parseTrait(
        _ scanner: LineScanner,
        line: Int,
        report: (Int, Int, String) -> Void
    ) -> (TraitDeclaration, nameColumn: Int)? {
        var scanner = scanner
        var access: TraitDeclaration.Access?
        var isReadOnly = false
        while true {
            let column = scanner.column
            guard let word = scanner.readWord() else {
                report(line, column, "expected 'trait', 'import', an indented 'default' or a '#' comment")
                return nil
            }
            if word == "trait" { break }
            if let level = TraitDeclaration.Access(rawValue: word), access == nil {
                access = level
            } else if word == "readonly", !isReadOnly {
                isReadOnly = true
            } else if !scanner.restContainsWord("trait") {
                report(line, column, "expected 'trait', 'import', an indented 'default' or a '#' comment")
                return nil
            } else {
                let options = (TraitDeclaration.Access.allCases.map(\.rawValue) + ["readonly"]).joined(separator: ", ")
                report(line, column, "unknown or repeated option '\(word)'; expected one of \(options) before 'trait'")
                return nil
            }
        }

        let nameColumn = scanner.column
        var afterName = scanner
        let word = afterName.readWord()
        let name = scanner.read(upTo: ":").trimmingWhitespace()
        guard scanner.skip(":") else {
            if let word {
                // `trait pet Int = 0`, `trait pet = 0`: the ':' belongs right after the name.
                report(
                    line, afterName.position + 1,
                    "missing ':' after trait '\(word)'; expected 'trait \(word): Type = default'")
            } else {
                report(line, nameColumn, "missing name and type for the trait; expected 'trait name: Type = default'")
            }
            return nil
        }
        guard name.isSwiftIdentifier else {
            report(
                line, nameColumn,
                "'\(name)' is not a valid Swift identifier; a trait name is a property name, such as 'pet'")
            return nil
        }
        if let problem = Self.generatedNameProblem(name) {
            report(line, nameColumn, problem)
            return nil
        }
        let typeColumn = scanner.column
        let type = scanner.readToTopLevelEquals().trimmingWhitespace()
        guard !type.isEmpty else {
            report(line, typeColumn, "missing type for trait '\(name)'; expected 'trait \(name): Type = default'")
            return nil
        }
        if let problem = SwiftFragment.problem(in: type, column: typeColumn, subject: "the type of trait '\(name)'") {
            report(line, problem.column, problem.message)
            return nil
        }
        guard scanner.skip("=") else {
            report(
                line, scanner.column,
                "missing default value for trait '\(name)'; expected '= expression' after '\(type)'")
            return nil
        }
        let defaultColumn = scanner.column
        let expression = scanner.rest()
        guard !expression.isEmpty else {
            report(line, defaultColumn, "missing default value for trait '\(name)'; expected an expression after '='")
            return nil
        }
        if let problem = SwiftFragment.problem(
            in: expression, column: defaultColumn, subject: "the default of trait '\(name)'")
        {
            report(line, problem.column, problem.message)
            return nil
        }
        let trait = TraitDeclaration(
            name: name,
            type: type,
            defaultExpression: expression,
            access: access ?? .internal,
            isReadOnly: isReadOnly,
            line: line
        )
        return (trait, nameColumn)
    }

    private func parseNamedDefault(
        _ scanner: LineScanner,
        line: Int,
        into file: inout TraitFile,
        report: (Int, Int, String) -> Void
    ) {
        var scanner = scanner
        let keywordColumn = scanner.column
        guard scanner.readWord() == "default" else {
            report(line, keywordColumn, "expected 'default name = expression' on an indented line")
            return
        }
        guard let traitIndex = file.traits.indices.last else {
            report(line, keywordColumn, "a 'default' line must follow the trait it belongs to")
            return
        }
        let nameColumn = scanner.column
        let name = scanner.readToTopLevelEquals().trimmingWhitespace()
        guard name.isSwiftIdentifier else {
            report(line, nameColumn, "'\(name)' is not a valid Swift identifier; expected 'default name = expression'")
            return
        }
        guard scanner.skip("="), case let column = scanner.column, case let expression = scanner.rest(),
            !expression.isEmpty
        else {
            report(line, scanner.column, "missing value for default '\(name)'; expected 'default \(name) = expression'")
            return
        }
        if let problem = SwiftFragment.problem(in: expression, column: column, subject: "default '\(name)'") {
            report(line, problem.column, problem.message)
            return
        }
        let trait = file.traits[traitIndex]
        guard !trait.namedDefaults.contains(where: { $0.name == name }) else {
            report(line, nameColumn, "duplicate default '\(name)' for trait '\(trait.name)'")
            return
        }
        // The injector's members so far, and who generates each.
        let traitStem = trait.name.uppercasingFirstLetter
        var members = ["Value": "the injector", trait.name: "trait '\(trait.name)'"]
        members["default\(traitStem)"] = "trait '\(trait.name)'"
        for other in trait.namedDefaults {
            members["\(other.name)\(traitStem)"] = "default '\(other.name)'"
            members["default\(other.name.uppercasingFirstLetter)\(traitStem)"] = "default '\(other.name)'"
        }
        for member in ["\(name)\(traitStem)", "default\(name.uppercasingFirstLetter)\(traitStem)"] {
            if let owner = members[member] {
                report(
                    line, nameColumn,
                    "default '\(name)' generates '\(traitStem)Injector.\(member)', which \(owner) generates too; "
                        + "rename one")
                return
            }
        }
        file.traits[traitIndex].namedDefaults.append(.init(name: name, expression: expression, line: line))
    }
}

/// Identifiers that are not keywords everywhere but cannot name a member (`x.Type` is a metatype,
/// `x.self` the value itself) or make the generated declarations fail to parse.
private let reservedMemberNames: Set<String> = [
    "Type", "Protocol", "self", "Self", "precedencegroup", "await", "init", "deinit", "subscript",
]
