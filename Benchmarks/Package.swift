// swift-tools-version: 6.1

import PackageDescription

let package = Package(
    name: "TraitInjectionBenchmarks",
    platforms: [
        .macOS(.v15)
    ],
    dependencies: [
        .package(name: "TraitInjection", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        benchmarkTarget("TraitBenchmarks"),
        benchmarkTarget("InjectBenchmarks"),
        benchmarkTarget("ContainerBenchmarks", also: [.product(name: "Swinject", package: "Swinject")]),
    ],
    swiftLanguageModes: [.v6]
)

/// A benchmark executable in `Benchmarks/<name>`, on TraitInjection and package-benchmark.
func benchmarkTarget(_ name: String, also dependencies: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "TraitInjection", package: "TraitInjection"),
            .product(name: "Benchmark", package: "benchmark"),
        ] + dependencies,
        path: "Benchmarks/\(name)",
        plugins: [
            .plugin(name: "BenchmarkPlugin", package: "benchmark")
        ]
    )
}
