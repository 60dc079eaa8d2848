// traitgen: generates trait protocols, injectors and properties from a `.traits` file.

import Foundation
import TraitGenerator

let usage = """
    OVERVIEW: Generate TraitInjection traits from a .traits declaration file.

    USAGE: traitgen <input.traits> --output <output.swift>

    Each line of the input declares one trait:

        trait pet: Pet = Pet(name: "Rover", species: "Dog")
        public readonly trait serial: Int = 0
        trait catchphrase: String = "..."
            default comical = "'Tis but a scratch!"

    Options before 'trait': public, package, internal (the default), readonly.
    Indented 'default name = expression' lines add named defaults to the injector.
    'import Module' lines add imports to the generated file; '#' starts a comment.

    Errors are printed as 'path:line:column: error: message' and the exit status is 1.

    OPTIONS:
      -o, --output <path>   Where to write the generated Swift file.
      -h, --help            Show this help.
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("traitgen: error: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(arguments.isEmpty ? 1 : 0)
}
var input: String?
var output: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "-o", "--output":
        guard !arguments.isEmpty else { fail("\(argument) needs a path; see --help") }
        output = arguments.removeFirst()
    case _ where argument.hasPrefix("-"):
        fail("unknown option '\(argument)'; see --help")
    case _ where input == nil:
        input = argument
    default:
        fail("unexpected argument '\(argument)': traitgen takes one input file; see --help")
    }
}
guard let input else { fail("missing the input .traits file; see --help") }
guard let output else { fail("missing --output <path>; see --help") }

guard let bytes = FileManager.default.contents(atPath: input) else { fail("cannot read '\(input)'") }

do {
    let source = try TraitGenerator.decode(Array(bytes), path: input)
    let generated = try TraitGenerator.generate(from: source, path: input)
    // Rewrite only when the text changes, so that builds depending on the output stay incremental.
    if (try? String(contentsOfFile: output, encoding: .utf8)) != generated {
        try generated.write(toFile: output, atomically: true, encoding: .utf8)
    }
} catch let diagnostics as TraitDiagnostics {
    FileHandle.standardError.write(Data((diagnostics.description + "\n").utf8))
    exit(1)
} catch {
    fail("cannot write '\(output)': \(error.localizedDescription)")
}
