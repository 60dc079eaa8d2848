// swift-tools-version: 6.1

import PackageDescription

// The documentation's code, compiled and run: every Swift and `.traits` block of `README.md` and
// the DocC articles is a region of a file here (between `sample-begin` and `sample-end` lines),
// and `DocSampleTests` fails when a block and its region differ. `.ci/run` builds this package
// with warnings as errors, runs its tests and its executables. See README.md.
let package = Package(
    name: "TraitInjectionSamples",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "TraitInjection", path: "../")],
    targets: [
        // README.md: the trait tour (its .traits file and Swift block) and the container.
        sample("ReadmeTour", generatingTraits: true),
        sample("ReadmeContainer"),

        // The DocC articles, one executable each.
        sample("Overview", generatingTraits: true),
        sample("GettingStarted"),
        sample("TraitsArticle", generatingTraits: true),
        sample("ContainerArticle", checksContainers: true),
        sample("ConcurrencyArticle", checksContainers: true),
        sample("MigratingArticle"),
        sample("DeclaringArticle", checksContainers: true),

        // The app of *Generating traits* and its tests, with those of *Testing* and the README's.
        // sample-begin
        // Package.swift
        .target(
            name: "App",
            dependencies: ["TraitInjection"],
            plugins: [.plugin(name: "TraitGenPlugin", package: "TraitInjection")]
        ),
        // sample-end
        // sample-begin
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App",
                .product(name: "TraitInjectionTesting", package: "TraitInjection"),
                .product(name: "TraitInjectionDiagnostics", package: "TraitInjection"),
            ]
        ),
        // sample-end

        // Compares the documentation's blocks with the regions of these files, and checks what
        // the articles say of their samples (the Container article's session scope).
        .testTarget(
            name: "DocSampleTests",
            dependencies: ["ContainerArticle", .product(name: "TraitInjection", package: "TraitInjection")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// An executable in `Sources/<name>` on TraitInjection, with TraitGenPlugin if it has a `.traits`
/// file, and TraitInjectionDiagnostics if it calls `verify()` or `dependencyGraph()`.
func sample(_ name: String, generatingTraits: Bool = false, checksContainers: Bool = false) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "TraitInjection", package: "TraitInjection")]
            + (checksContainers ? [.product(name: "TraitInjectionDiagnostics", package: "TraitInjection")] : []),
        plugins: generatingTraits ? [.plugin(name: "TraitGenPlugin", package: "TraitInjection")] : []
    )
}
