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
        .executable(name: "Example", targets: ["Example"]),
    ],
    targets: [
        .target(name: "TraitInjection"),
        .executableTarget(
            name: "Example",
            dependencies: ["TraitInjection"]
        ),
        // The seed article's user-side code, verbatim, compiled in Swift 5 mode against the library.
        .target(
            name: "SeedListing",
            dependencies: ["TraitInjection"],
            path: "Tests/Support/SeedListing",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "TraitInjectionTests",
            dependencies: ["TraitInjection", "SeedListing"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
