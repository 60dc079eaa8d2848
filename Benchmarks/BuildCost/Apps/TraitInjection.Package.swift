// swift-tools-version: 6.1
// The one-service app on TraitInjection (Benchmarks/BuildCost/run.sh fills in the path).
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "TraitInjection", path: "@ROOT@")],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "TraitInjection", package: "TraitInjection")])
    ],
    swiftLanguageModes: [.v6]
)
