// swift-tools-version: 6.1

import PackageDescription

let package = Package(
    name: "TraitInjection",
    platforms: [
        .macOS(.v15),
        .iOS(.v18),
        .tvOS(.v18),
        .watchOS(.v11),
        .visionOS(.v2),
    ],
    products: [
        .library(name: "TraitInjection", targets: ["TraitInjection"]),
        .library(name: "TraitInjectionDiagnostics", targets: ["TraitInjectionDiagnostics"]),
        .library(name: "TraitInjectionTesting", targets: ["TraitInjectionTesting"]),
        .executable(name: "traitgen", targets: ["traitgen"]),
        .plugin(name: "TraitGenPlugin", targets: ["TraitGenPlugin"]),
    ],
    targets: [
        // `Resolving/README.md` is the maintainer's map of the resolution engine.
        .target(name: "TraitInjection", exclude: ["Resolving/README.md"]),

        // verify(), verifyAsync() and dependencyGraph(): a module of their own, so that an app that
        // does not check its container does not compile the reports (issue 35's build cost).
        .target(name: "TraitInjectionDiagnostics", dependencies: ["TraitInjection"]),

        // Swift Testing traits that isolate each test's shared container and injector defaults.
        .target(name: "TraitInjectionTesting", dependencies: ["TraitInjection"]),

        // The trait template generator: a library (so tests call it), its command and its plugin.
        .target(name: "TraitGenerator"),
        .executableTarget(name: "traitgen", dependencies: ["TraitGenerator"]),
        .plugin(name: "TraitGenPlugin", capability: .buildTool(), dependencies: ["traitgen"]),

        .executableTarget(
            name: "Example",
            dependencies: ["TraitInjection", "TraitInjectionDiagnostics"],
            plugins: ["TraitGenPlugin"]
        ),

        // The seed article's user-side code, verbatim, compiled in Swift 5 mode against the library.
        .target(
            name: "SeedListing",
            dependencies: ["TraitInjection"],
            path: "Tests/Support/SeedListing",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Types and helpers shared by the test targets (package access).
        .target(
            name: "TestFixtures",
            dependencies: ["TraitInjection"],
            path: "Tests/Support/TestFixtures"
        ),
        .testTarget(
            name: "TraitInjectionTests",
            dependencies: ["TraitInjection", "TraitInjectionDiagnostics", "SeedListing", "TestFixtures"],
            // Swift 6.3.1's LLVM optimiser crashes (FunctionAttrs, signal 11) on this target's
            // release build: the release run optimises the library and the stress target only.
            swiftSettings: [.unsafeFlags(["-Onone"], .when(configuration: .release))]
        ),
        // Concurrency stress and the internal primitives: CI runs this target under
        // ThreadSanitizer, AddressSanitizer and in release mode.
        .testTarget(
            name: "TraitInjectionStressTests",
            dependencies: ["TraitInjection", "TraitInjectionDiagnostics", "TestFixtures"]
        ),
        .testTarget(
            name: "TraitInjectionTestingTests",
            dependencies: ["TraitInjection", "TraitInjectionTesting", "TestFixtures"]
        ),
        .testTarget(
            name: "TraitGeneratorTests",
            dependencies: ["TraitGenerator"],
            exclude: ["Support/Golden"]
        ),
        // Compiles and runs code generated from Support/Fixtures.traits by the plugin.
        .testTarget(
            name: "GeneratedTraitTests",
            dependencies: ["TraitInjection", "TestFixtures"],
            plugins: ["TraitGenPlugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .plugin {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
