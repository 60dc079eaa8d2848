import PackagePlugin

/// Runs `traitgen` on every `.traits` file of a target that adopts the plugin, adding one
/// generated Swift file per declaration file to the target's sources.
///
/// ```swift
/// .target(name: "App", dependencies: ["TraitInjection"], plugins: [.plugin(name: "TraitGenPlugin", package: "TraitInjection")])
/// ```
@main
struct TraitGenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let traitgen = try context.tool(named: "traitgen")
        return target.sourceFiles(withSuffix: "traits").map { file in
            let name = file.url.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appending(path: "\(name)+Traits.swift")
            return .buildCommand(
                displayName: "Generating traits from \(file.url.lastPathComponent)",
                executable: traitgen.url,
                arguments: [file.url.path(percentEncoded: false), "--output", output.path(percentEncoded: false)],
                inputFiles: [file.url],
                outputFiles: [output]
            )
        }
    }
}
