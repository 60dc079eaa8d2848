import Benchmark
import Foundation

// The allocation limits of TraitInjection's rows, checked by `Benchmarks/check-allocations`.
//
// package-benchmark 1.38.1 checks a run against static thresholds with
// `swift package benchmark thresholds check --path DIR`: it compares each row's p90 with the
// value in `DIR/<target>.<row>.p90.json`, allowing the deviation the row's configuration gives in
// `thresholds`, and fails (`error: benchmarkThresholdRegression`, a non-zero exit) when a row is
// worse, or when only better (`benchmarkThresholdImprovement`). The script writes a reference of 0
// allocations for each row an allocation check registers, so the deviation allowed here is the
// row's limit: it fails when it allocates more, and cannot do better than 0.

/// The TraitInjection rows whose allocations `check-allocations` checks.
enum LimitedRow {
    /// `Resolve transient: TraitInjection`.
    case transient
    /// `Resolve singleton: TraitInjection`, the singleton made before.
    case singleton
    /// `Resolve 4-object graph: TraitInjection`.
    case graph
    /// `Resolve one argument: TraitInjection`.
    case oneArgument
    /// `Resolve named, one of 10 names: TraitInjection`.
    case namedOfTen
    /// `Resolve named, one of 10000 names: TraitInjection`.
    case namedOfTenThousand
    /// `Async resolve singleton: resolveAsync, sync registration`, the singleton made before.
    case asyncSingleton

    /// The most allocations one resolve of the row may make: the table of limits, set from what
    /// the rows made on 2026-11-27 with issue 33's engine: the instance alone (a graph's four
    /// objects). Raise one only with the change that needs it, and lower it when a change saves
    /// one.
    var allocationsPerResolve: Int {
        switch self {
        case .transient: 1
        case .singleton: 0
        case .graph: 4
        case .oneArgument: 1
        case .namedOfTen: 1
        case .namedOfTenThousand: 1
        case .asyncSingleton: 0
        }
    }
}

/// Whether this run is `check-allocations`' (the environment variable
/// `TRAITINJECTION_ALLOCATION_CHECK` is set): only the rows with an allocation limit are
/// registered, and each runs briefly, since allocation counts do not vary between iterations.
let isAllocationCheck = ProcessInfo.processInfo.environment["TRAITINJECTION_ALLOCATION_CHECK"] != nil

extension Benchmark.Configuration {
    /// The default configuration, with the row's allocation limit as the deviation from 0 its
    /// `.mallocCountTotal` may show: `scalingFactor` (1,000) times its limit per resolve, since each
    /// measured iteration does that many resolves.
    static func limited(_ row: LimitedRow) -> Self {
        var configuration = Benchmark.defaultConfiguration
        configuration.skip = false
        configuration.thresholds = [
            .mallocCountTotal: .init(absolute: [.p90: row.allocationsPerResolve * configuration.scalingFactor.rawValue])
        ]
        if isAllocationCheck {
            configuration.warmupIterations = 2
            configuration.maxIterations = 20
        }
        return configuration
    }
}
