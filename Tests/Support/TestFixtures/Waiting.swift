import Dispatch

/// Keeps the current thread busy for `microseconds`, blocking it (as a slow factory would).
package func usleepCompat(_ microseconds: UInt32) {
    let deadline = DispatchTime.now() + .microseconds(Int(microseconds))
    while DispatchTime.now() < deadline { _ = 0 }
}

/// Whether `condition` becomes true within `seconds`, checked every millisecond: for what
/// another thread does (such as the end of a resolve in a test running in parallel).
///
/// The default is generous: a parallel test's long resolve (a deep chain, a slow singleton)
/// takes tens of seconds on a loaded 2-core machine or under a sanitizer.
package func waitUntil(seconds: Int = 120, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now() + .seconds(seconds)
    while !condition() {
        guard DispatchTime.now() < deadline else { return false }
        usleepCompat(1_000)
    }
    return true
}
