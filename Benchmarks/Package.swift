// swift-tools-version: 6.1

import Foundation
import PackageDescription

/// A local copy of Factory 3.2.2 (`FactoryKit` only), beside this repository's clone as CI lays it
/// out. Its rows are compiled (under `FACTORY`) only where that copy is there.
let factoryPath = "../../shared/vendor/Factory"
let hasFactory = FileManager.default.fileExists(
    atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(factoryPath).path
)

let package = Package(
    name: "TraitInjectionBenchmarks",
    platforms: [
        .macOS(.v15)
    ],
    dependencies: [
        .package(name: "TraitInjection", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ] + (hasFactory ? [.package(name: "Factory", path: factoryPath)] : []),
    targets: [
        benchmarkTarget("TraitBenchmarks"),
        benchmarkTarget("InjectBenchmarks"),
        // TraitInjection side by side with the plain baseline, Swinject, Factory and a floor.
        benchmarkTarget(
            "ContainerBenchmarks",
            also: [.product(name: "Swinject", package: "Swinject")]
                + (hasFactory ? [.product(name: "FactoryKit", package: "Factory")] : []),
            swiftSettings: hasFactory ? [.define("FACTORY")] : []
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// A benchmark executable in `Benchmarks/<name>`, on TraitInjection and package-benchmark.
func benchmarkTarget(
    _ name: String,
    also dependencies: [Target.Dependency] = [],
    swiftSettings: [SwiftSetting] = []
) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "TraitInjection", package: "TraitInjection"),
            .product(name: "Benchmark", package: "benchmark"),
        ] + dependencies,
        path: "Benchmarks/\(name)",
        swiftSettings: swiftSettings,
        plugins: [
            .plugin(name: "BenchmarkPlugin", package: "benchmark")
        ]
    )
}
