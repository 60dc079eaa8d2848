// swift-tools-version: 6.1
// The one-service app on Factory (Benchmarks/BuildCost/run.sh fills in the path).
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Factory", path: "@FACTORY@")],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "FactoryKit", package: "Factory")])
    ],
    swiftLanguageModes: [.v6]
)
