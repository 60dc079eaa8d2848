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
    ],
    targets: [
        .executableTarget(
            name: "TraitBenchmarks",
            dependencies: [
                .product(name: "TraitInjection", package: "TraitInjection"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TraitBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
