import Dispatch
import Synchronization
import TestFixtures
import Testing

@testable import TraitInjection

/// A registration replaced while a resolve of it runs (``RegistryEntry/replace(with:)``): that
/// resolve carries on with it, and it goes when the resolve ends.
@Suite("Resolving: a binding replaced during its resolve", .timeLimit(.minutes(10)))
struct ReplacedBindingTests {
    @Test(
        "A registration replaced while its factory runs lives until that resolve ends, which gets its instance",
        arguments: [Scope<Service>.transient, .graph, .container, .weak]
    )
    func livesUntilItsResolveEnds(scope: Scope<Service>) async throws {
        let container = Container()
        let entered = Gate()
        let proceed = DispatchSemaphore(value: 0)
        var probe: Probe? = Probe()
        weak let captured = probe
        do {
            let probe = probe
            container.register(Service.self) { _ in
                entered.open()
                proceed.wait()
                return Service(number: probe?.number == 0 ? 1 : -1)
            }
            .inScope(scope)
        }
        probe = nil
        #expect(captured != nil)
        let old = Mutex<Service?>(nil)
        async let resolved: Void = onOwnThreads { _ in
            old.withLock { $0 = try? container.resolve(Service.self) }
        }
        await entered.wait()
        container.register(Service.self) { _ in Service(number: 2) }.inScope(scope)
        // The old factory still runs, and holds its registration: what it captured is alive.
        #expect(captured != nil)
        // Meanwhile other resolves get the new registration, without waiting for the old one.
        let new = try container.resolve(Service.self)
        #expect(new.number == 2)
        proceed.signal()
        await resolved
        // Its factory completed, and its resolve got its instance.
        let instance = try #require(old.withLock { $0 })
        #expect(instance.number == 1)
        // Then the old registration went.
        #expect(captured == nil)
        // An instance made for a replaced registration is not kept in its place.
        let next = try container.resolve(Service.self)
        #expect(next.number == 2)
        if scope == .container || scope == .weak {
            #expect(next === new)
        }
        withExtendedLifetime(new) {}
    }

    @Test("A singleton made for a replaced registration is its resolve's only: the entry keeps the new one")
    func singletonOfAReplacedRegistrationIsNotKept() async throws {
        let container = Container()
        let entered = Gate()
        let proceed = DispatchSemaphore(value: 0)
        let oldInstances = DeinitCounter()
        container.register(Probe.self) { _ in
            entered.open()
            proceed.wait()
            return Probe(number: 1, deinits: oldInstances)
        }
        .inScope(.container)
        let entry = try #require(container.entry(of: Probe.self))
        let made = Mutex<Int?>(nil)
        async let resolved: Void = onOwnThreads { _ in
            made.withLock { $0 = (try? container.resolve(Probe.self))?.number }
        }
        await entered.wait()
        #expect(entry.isCreating)
        container.register(Probe.self) { _ in Probe(number: 2) }.inScope(.container)
        // The replacement let the creation go: nothing is kept, and nothing is being made.
        #expect(entry.isEmpty)
        proceed.signal()
        await resolved
        // It got the instance its factory made: that of the old registration.
        #expect(made.withLock { $0 } == 1)
        #expect(entry.isEmpty)
        #expect(entry.keptInstance == nil)
        // Made for its resolve, not kept: gone with it.
        #expect(oldInstances.count == 1)
        let kept = try container.resolve(Probe.self)
        #expect(kept.number == 2)
        #expect(try container.resolve(Probe.self) === kept)
    }
}
