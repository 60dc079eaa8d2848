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
        ),
        .executableTarget(
            name: "InjectBenchmarks",
            dependencies: [
                .product(name: "TraitInjection", package: "TraitInjection"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/InjectBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
        .executableTarget(
            name: "ContainerBenchmarks",
            dependencies: [
                .product(name: "TraitInjection", package: "TraitInjection"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ContainerBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
