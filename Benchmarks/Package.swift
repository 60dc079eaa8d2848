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
        benchmarkTarget(
            "TraitBenchmarks",
            also: ["LibrarySubject", "LockedSlotSubject"]
        ),
        benchmarkTarget("InjectBenchmarks"),
        benchmarkTarget(
            "ContainerBenchmarks",
            also: [
                .product(name: "Swinject", package: "Swinject"), "LibrarySubject", "DictionarySnapshotSubject",
                "MutexCellSubject", "LockedRegistrySubject", "NewContextSubject", "UncheckedExclusivitySubject",
                "LockedAsyncLookupSubject", "TraitInjectionLockedAsyncLookup",
            ]
        ),

        // The technique split (README.md): the library with one technique swapped for its plain
        // baseline, and the same rows' code (`Subjects/Shared/Subject.swift` for the container,
        // `Subjects/Shared/TraitSubject.swift` for the trait store) on each build.
        .target(
            name: "LibrarySubject",
            dependencies: [.product(name: "TraitInjection", package: "TraitInjection")],
            path: "Subjects/Library"
        ),
    ]
        + variant("DictionarySnapshot", replacing: "Internal/Container/RegistrySnapshot.swift")
        + variant("MutexCell", replacing: "Internal/Container/InstanceCell.swift")
        + variant("LockedRegistry", replacing: "Internal/Container/Container+Registry.swift")
        + variant("NewContext", replacing: "Internal/Container/ResolutionContext+Threads.swift")
        // The library as shipped, with exclusivity checks off everywhere (the most that
        // `@exclusivity(unchecked)` on the resolution context's properties could save).
        + variant("UncheckedExclusivity", flags: ["-enforce-exclusivity=unchecked"])
        // `resolveAsync`'s lookup under the registry's and the cell's locks, retained.
        + variant("LockedAsyncLookup", replacing: "Container/Container+Async.swift")
        // The trait store's techniques (`Subjects/Shared/TraitSubject.swift`).
        + variant("LockedSlot", replacing: "Traits/TraitSlot.swift"),
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

/// The library's sources (through the symlink `Variants/<name>/Library`) as the module
/// `TraitInjection<name>`, with the file `replaced` (if any) swapped for the baseline beside the
/// symlink and compiled with `flags`; and `<name>Subject`, the split's rows on it, which imports
/// it under `VARIANT_<name>`.
func variant(_ name: String, replacing replaced: String? = nil, flags: [String] = []) -> [Target] {
    [
        .target(
            name: "TraitInjection\(name)",
            path: "Variants/\(name)",
            exclude: ["Library/TraitInjection.docc", "Library/Internal/README.md"]
                + (replaced.map { ["Library/\($0)"] } ?? []),
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ] + (flags.isEmpty ? [] : [.unsafeFlags(flags)])
        ),
        .target(
            name: "\(name)Subject",
            dependencies: [.target(name: "TraitInjection\(name)")],
            path: "Subjects/\(name)",
            swiftSettings: [.define("VARIANT_\(name)")]
        ),
    ]
}
