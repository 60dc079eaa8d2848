import Synchronization

/// Where the app runs, as a declared service's context factories see it (``RegisteredWith``'s
/// `onTest`, `onPreview`, `onDebug`, `onArgument`).
///
/// Each is detected when first asked: a test run (XCTest or Swift Testing: an `.xctest` bundle,
/// the Swift Testing helper, or XCTest's environment variables), a SwiftUI preview
/// (`XCODE_RUNNING_FOR_PREVIEWS=1`), the launch arguments (`CommandLine.arguments`). A debug build
/// is the app's own: `-Onone`, read where the declaration is compiled. Set any of them explicitly,
/// before the services are first used, with ``set(test:preview:arguments:)``:
///
/// ```swift
/// RunContext.set(preview: true)  // a preview host that Xcode's variable does not reach
/// ```
///
/// A context chooses the factory a declared service's default is registered with, on its first
/// use in a container: changing the context later changes services first used later, or reset.
public enum RunContext {
    private struct Explicit {
        var test: Bool?
        var preview: Bool?
        var arguments: [String]?
    }

    private static let explicit = Mutex(Explicit())

    /// Whether this is a test run.
    public static var isTest: Bool { explicit.withLock { $0.test } ?? detectedTest }

    /// Whether this is a SwiftUI preview.
    public static var isPreview: Bool { explicit.withLock { $0.preview } ?? detectedPreview }

    /// The launch arguments.
    public static var arguments: [String] { explicit.withLock { $0.arguments } ?? CommandLine.arguments }

    /// Sets what is detected: `nil` leaves a context as detected (or as set before).
    public static func set(test: Bool? = nil, preview: Bool? = nil, arguments: [String]? = nil) {
        explicit.withLock { explicit in
            explicit.test = test ?? explicit.test
            explicit.preview = preview ?? explicit.preview
            explicit.arguments = arguments ?? explicit.arguments
        }
    }

    /// Forgets what ``set(test:preview:arguments:)`` set: every context is detected again.
    public static func reset() {
        explicit.withLock { $0 = Explicit() }
    }

    private static let detectedTest: Bool = {
        let program = CommandLine.arguments.first ?? ""
        return program.hasSuffix(".xctest") || program.contains(".xctest/")
            || program.hasSuffix("swiftpm-testing-helper")
            || ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"].contains {
                Platform.environment($0) != nil
            }
    }()

    private static let detectedPreview = Platform.environment("XCODE_RUNNING_FOR_PREVIEWS") == "1"
}
