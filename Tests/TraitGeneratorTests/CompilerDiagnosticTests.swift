import Foundation
import Testing
import TraitGenerator

/// Generated code type-checked by `swiftc` against the built TraitInjection module: whatever the
/// compiler rejects in a `.traits` line (a type that does not exist or is not `Sendable`, a default
/// of the wrong type, an incomplete expression, trailing garbage) is reported on that line of the
/// `.traits` file, never in the generated Swift. (What would leak past its line — an unclosed
/// string, bracket or comment — `traitgen` rejects itself: see `ParserTests`.)
@Suite("Compiler errors in generated code", .serialized)
struct CompilerDiagnosticTests {
    @Test(
        "Each type or default the compiler rejects is reported on its .traits line, and only there",
        arguments: [false, true]
    )
    func errorsLandOnTraitsLines(internalImportsByDefault: Bool) async throws {
        let traits = """
            # Each trait is wrong in a way only the compiler can tell; line numbers matter below.
            trait unknown: NoSuchType = NoSuchType()
            trait cache: Cache = Cache()
            trait count: Int = "x"
            trait sum: Int = 1 +
            trait pair: Int = 1 2
            trait fine: Int = 1
                default other = "two"
            trait largest: Int = max(1)
            readonly trait serial: NoSuchSerial = 0
            trait list: Array = [1]
            trait unique: Unique = Unique()

            """
        let result = try await TypeCheck(
            traits: traits, support: "final class Cache {}\nstruct Unique: ~Copyable, Sendable {}",
            internalImportsByDefault: internalImportsByDefault)
        #expect(result.status != 0)
        for error in result.errors {
            #expect(error.hasPrefix(result.traitsPath + ":"), "an error located outside the .traits file: \(error)")
        }
        #expect(result.errorLines == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12], "\(result.errors.joined(separator: "\n"))")
    }

    @Test("A module that does not exist is reported on its import line", arguments: [false, true])
    func unknownModule(internalImportsByDefault: Bool) async throws {
        let result = try await TypeCheck(
            traits: "# imports\npublic import NoSuchModule\npublic trait pet: String = \"Rover\"\n",
            support: "", internalImportsByDefault: internalImportsByDefault)
        #expect(result.status != 0)
        #expect(result.errors.count == 1, "\(result.output)")
        #expect(result.errors.first?.hasPrefix(result.traitsPath + ":2:") == true, "\(result.output)")
    }

    @Test(
        "Correct files, adopted by a struct and a class, type-check without a diagnostic",
        arguments: [
            // Foundation is used by an internal trait only, and says so.
            "internal import Foundation\npublic trait pet: String = \"Rover\"\n    default wild = \"Wolf\"\n"
                + "readonly trait serial: UUID = UUID()\n",
            // A public trait of a Foundation type: the import is public.
            "import Foundation\npublic trait pet: String = \"Rover\"\n    default wild = \"Wolf\"\n"
                + "public readonly trait serial: UUID = UUID()\n",
            // The file imports TraitInjection itself; a Void trait (whose accessors must not warn).
            "internal import TraitInjection\ntrait pet: String = \"Rover\"\n    default wild = \"Wolf\"\n"
                + "trait serial: Int = 1\ntrait nothing: Void = ()\n",
            // Package traits only: the imports are package imports.
            "import Foundation\npackage trait pet: String = \"Rover\"\n    default wild = \"Wolf\"\n"
                + "package readonly trait serial: UUID = UUID()\n",
        ]
    )
    func correctFileTypeChecks(traits: String) async throws {
        // With plain imports of the same modules in another file, as an app's files have them.
        let support = """
            struct Owner: PetInjected, SerialInjected { var injectableIdentifier = InjectableIdentifier() }
            final class Keeper: PetInjected { var injectableIdentifier = InjectableIdentifier() }
            func use() {
                var owner = Owner()
                owner.pet = PetInjector.defaultWildPet
                let keeper = Keeper()
                keeper.pet = owner.pet
                _ = owner.serial
            }
            """
        for internalImportsByDefault in [false, true] {
            let result = try await TypeCheck(
                traits: traits, support: support, internalImportsByDefault: internalImportsByDefault)
            #expect(result.status == 0, "InternalImportsByDefault: \(internalImportsByDefault)")
            #expect(result.output.isEmpty, "InternalImportsByDefault: \(internalImportsByDefault)\n\(result.output)")
        }
    }

    @Test(
        "With InternalImportsByDefault, an import only internal traits use, beside a public trait, is flagged on its .traits line"
    )
    func unusedPublicImportIsLocated() async throws {
        let result = try await TypeCheck(
            traits: "import Foundation\npublic trait pet: String = \"Rover\"\ntrait serial: UUID = UUID()\n",
            support: "",
            internalImportsByDefault: true
        )
        #expect(result.status == 0)
        #expect(
            result.output.hasPrefix(
                result.traitsPath + ":1:8: warning: public import of 'Foundation' was not used in public declarations"),
            "\(result.output)")
    }
}

/// `swiftc -typecheck` of the code generated from `traits` (saved as `T.traits` in a temporary
/// folder) and of `support` (after plain imports of Foundation and TraitInjection), against the
/// TraitInjection module of the build running this test, with or without the upcoming feature
/// `InternalImportsByDefault`.
struct TypeCheck {
    let traitsPath: String
    let status: Int32
    let output: String

    var errors: [String] { output.components(separatedBy: "\n").filter { $0.contains(": error: ") } }

    /// The `.traits` lines the errors are on.
    var errorLines: Set<Int> {
        Set(errors.compactMap { Int($0.dropFirst(traitsPath.count + 1).prefix { $0.isNumber }) })
    }

    init(traits: String, support: String, internalImportsByDefault: Bool = false) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "traitgen-typecheck-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        traitsPath = folder.appending(path: "T.traits").path
        let generated = folder.appending(path: "T+Traits.swift")
        let supportFile = folder.appending(path: "Support.swift")
        try traits.write(toFile: traitsPath, atomically: true, encoding: .utf8)
        try TraitGenerator.generate(from: traits, path: traitsPath).write(
            to: generated, atomically: true, encoding: .utf8)
        try ("import Foundation\nimport TraitInjection\n\n" + support).write(
            to: supportFile, atomically: true, encoding: .utf8)

        var arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-diagnostic-style", "llvm", "-package-name", "app",
            "-I", try Self.modules().path, generated.path, supportFile.path,
        ]
        if internalImportsByDefault {
            arguments += ["-enable-upcoming-feature", "InternalImportsByDefault"]
        }
        // The compiler runs for a second or more: its output is read, and its exit waited for, on
        // a thread of its own, while this task suspends (a pool thread would be held meanwhile).
        let (status, data) = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<(Int32, Data), any Error>) in
            let arguments = arguments
            Thread.detachNewThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = arguments
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, data))
            }
        }
        self.status = status
        output = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The `Modules` folder of this build (`.build/<triple>/debug/Modules`, or the sanitizer's or
    /// release build's), found above the test executable or bundle.
    static func modules() throws -> URL {
        let starts =
            [CommandLine.arguments.first, Bundle.main.executablePath].compactMap { $0 }
            + Bundle.allBundles.map(\.bundlePath)
        for start in starts {
            var folder = URL(fileURLWithPath: start).deletingLastPathComponent()
            while folder.path != "/" {
                let modules = folder.appending(path: "Modules")
                if FileManager.default.fileExists(atPath: modules.appending(path: "TraitInjection.swiftmodule").path) {
                    return modules
                }
                folder.deleteLastPathComponent()
            }
        }
        throw ModulesNotFound(searched: starts)
    }

    struct ModulesNotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "no Modules/TraitInjection.swiftmodule above \(searched); build the package (swift build --build-tests) first"
        }
    }
}
