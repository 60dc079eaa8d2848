// swift-tools-version: 6.1
// The one-service app on Swinject (Benchmarks/BuildCost/run.sh fills in the path).
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0")],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "Swinject", package: "Swinject")])
    ],
    swiftLanguageModes: [.v6]
)
