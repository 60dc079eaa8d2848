// Found by an adversarial review: claims made by resolves that a deinit starts while a resolve
// ends, and state left on pooled contexts.

import Dispatch
import TestFixtures
import Testing
import TraitInjection

#if canImport(Glibc)
    import CDispatch
    import Glibc
#endif

private final class LcSingleton: Sendable {}
private final class LcStatus: @unchecked Sendable { var error: ResolutionError? }
private struct LcBoom: Error {}

/// Resolves the singleton in its deinit ("log on deinit").
private final class LcResolvesOnDeinit: Sendable {
    let container: Container
    init(_ container: Container) { self.container = container }
    deinit { _ = try? container.resolve(LcSingleton.self) }
}
private final class LcClaimedA: Sendable {
    let inner: LcResolvesOnDeinit
    init(_ container: Container) { inner = LcResolvesOnDeinit(container) }
}
private final class LcGraphG: Sendable {
    let inner: LcResolvesOnDeinit
    init(_ container: Container) { inner = LcResolvesOnDeinit(container) }
}
private final class LcTop: Sendable {}
private final class LcOuter: Sendable {}
private final class LcInner: Sendable {}

/// Runs `body` on a new pthread with `stack` bytes; returns whether it ended within `seconds`.
private func lcFinishes(within seconds: Double, stack: Int = 8 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
    let done = DispatchSemaphore(value: 0)
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, stack)
    var thread = pthread_t()
    let box = Unmanaged.passRetained(
        Box({
            body(); done.signal()
        })
    ).toOpaque()
    pthread_create(
        &thread, &attributes,
        { p in
            Unmanaged<Box>.fromOpaque(p!).takeRetainedValue().body()
            return nil
        }, box)
    pthread_detach(thread)
    return done.wait(timeout: .now() + seconds) == .success
}

@Suite("Container: kept instances claimed from a deinit while a resolve ends", .serialized)
struct ContainerLateClaimStressTests {
    /// A failing root: `fail()` drops the abandoned singleton A, whose deinit resolves S (a late
    /// claim owned by (root, a)). `releaseKeeping` then bumps the activation and drops the graph
    /// instance G *before* publishing late claims; G's deinit resolves S as owner (root, a+1),
    /// finds S `.creating((root, a))`, and sleeps for its own thread.
    @Test(
        "Stress: a failed resolve whose dropped instances resolve a singleton in their deinit ends, and the singleton is usable"
    )
    func failedRootLateClaimSelfWait() {
        let container = Container()
        container.register(LcSingleton.self) { _ in LcSingleton() }.inScope(.container)
        container.register(LcClaimedA.self) { _ in LcClaimedA(container) }.inScope(.container)
        container.register(LcGraphG.self) { _ in LcGraphG(container) }.inScope(.graph)
        container.register(LcTop.self) { r in
            _ = try r.resolve(LcClaimedA.self)
            _ = try r.resolve(LcGraphG.self)
            throw LcBoom()
        }
        let ok = lcFinishes(within: 5) { _ = try? container.resolve(LcTop.self) }
        #expect(ok, "the failing resolve's thread sleeps forever waiting for its own late claim")
        let other = lcFinishes(within: 2) { _ = try? container.resolve(LcSingleton.self) }
        #expect(other, "and any later resolve of the singleton hangs too")
    }

    /// `acquireFirst` does not reset `nesting`: a pooled context that was nested 999 deep becomes
    /// another thread's root with nesting 999, and that thread's first nested resolve is `tooDeep`.
    @Test("Stress: a context taken from the pool keeps nothing of its previous use (no spurious .tooDeep)")
    func staleNestingOnPooledRoot() {
        let container = Container()
        let status = LcStatus()
        container.register(LcInner.self) { _ in LcInner() }
        container.register(LcOuter.self) { _ in
            _ = try container.resolve(LcInner.self)  // nested top-level resolve
            return LcOuter()
        }
        container.register(Int.self) { (_, n: Int) in
            guard n < 999 else { return n }
            let value = try container.resolve(Int.self, arguments: n + 1)  // nesting n + 1
            if n == 998 {
                // The context of nesting 999 was just pooled (on top). A new thread's root takes it.
                _ = lcFinishes(within: 5) {
                    do throws(ResolutionError) { _ = try container.resolve(LcOuter.self) } catch {
                        status.error = error
                    }
                }
            }
            return value
        }
        let ok = lcFinishes(within: 30, stack: 256 << 20) { _ = try? container.resolve(Int.self, arguments: 0) }
        #expect(ok)
        #expect(status.error == nil, "spurious: \(String(describing: status.error))")
    }
}
