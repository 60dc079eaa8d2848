public import TraitInjection

/// What `verify()` or `verifyAsync()` found: every problem at once, and
/// what the dry run could not check.
///
/// A verification that finds problems throws its report; one that finds none returns it, so that
/// the registrations it could not check are visible too:
///
/// ```swift
/// @Test func graphIsComplete() throws {
///     let report = try AppContainer.make().verify()
///     #expect(report.skipped.isEmpty, "\(report)")
/// }
/// ```
///
/// Its ``description`` lists each problem with the path that led to it, and the registrations
/// not checked.
public struct VerificationReport: Error, Sendable, CustomStringConvertible {
    /// The resolution errors, one per registration that failed.
    public let problems: [ResolutionError]
    /// Kept instances that keep shorter-lived ones, each with both registrations.
    public let lifetimeProblems: [LifetimeProblem]
    /// Registrations the dry run did not resolve, each with the reason: those that take runtime
    /// arguments, which it cannot supply; for `verify()`, async ones, and main-actor
    /// ones off the main actor.
    public let skipped: [String]

    /// The note after a skipped registration that takes runtime arguments.
    /// The report of `run`, with `promises` (declared services nobody registered) among its
    /// problems; thrown if it found a problem.
    init(_ run: Container.DryRun, promises: [ResolutionError] = []) throws(VerificationReport) {
        // A promise found unkept by a dependent's dry run too is reported once, with its path.
        problems =
            promises.filter { promise in !run.problems.contains { $0.service == promise.service } } + run.problems
        lifetimeProblems = run.lifetimeProblems
        skipped = run.skipped
        guard problems.isEmpty, lifetimeProblems.isEmpty else { throw self }
    }

    /// The problems and lifetime problems, one per line with their paths, then what was not
    /// checked.
    public var description: String {
        var lines: [String] = []
        if problems.isEmpty, lifetimeProblems.isEmpty {
            lines.append("Every registration checked resolves, with no lifetime problem.")
        }
        if !problems.isEmpty {
            lines.append("\(problems.count) registration(s) cannot be resolved:")
            lines += problems.map { "- \($0.description)" }
        }
        if !lifetimeProblems.isEmpty {
            lines.append("\(lifetimeProblems.count) lifetime problem(s):")
            lines += lifetimeProblems.map { "- \($0.description)" }
        }
        if !skipped.isEmpty {
            lines.append("Not checked: \(skipped.joined(separator: "; ")).")
        }
        return lines.joined(separator: "\n")
    }
}
