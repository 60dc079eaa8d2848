import Synchronization
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

@Suite("Container: resolution trace")
struct ContainerTraceTests {
    final class Wheel: Sendable {}
    final class Engine: Sendable {}

    final class Car: Sendable {
        let wheels: [Wheel]
        let engine: Engine
        init(wheels: [Wheel], engine: Engine) {
            self.wheels = wheels
            self.engine = engine
        }
    }

    /// The events a container's trace saw.
    final class Recorder: Sendable {
        private let events = Mutex<[ResolutionTraceEvent]>([])

        func record(_ event: ResolutionTraceEvent) { events.withLock { $0.append(event) } }

        /// Each event as `depth service outcome`, and empties the record.
        func take() -> [String] {
            events.withLock { events in
                defer { events = [] }
                return events.map { event in
                    let outcome =
                        switch event.outcome {
                        case .created: "new"
                        case .cached: "cached"
                        case .failed(let kind): "failed \(kind)"
                        }
                    return "\(event.depth) \(event.service) \(event.scope) \(outcome)"
                }
            }
        }
    }

    func carContainer(tracedBy recorder: Recorder) -> Container {
        let container = Container()
        container.register(Wheel.self) { _ in Wheel() }
        container.register(Engine.self) { _ in Engine() }.inScope(.container)
        container.register(Car.self) { r in
            Car(wheels: [try r.resolve(Wheel.self), try r.resolve(Wheel.self)], engine: try r.resolve(Engine.self))
        }
        container.resolutionTrace = { recorder.record($0) }
        return container
    }

    @Test("Each resolve, indented by depth, with its scope and whether it was new or cached")
    func traceOfAGraph() throws {
        let recorder = Recorder()
        let container = carContainer(tracedBy: recorder)
        _ = try container.resolve(Car.self)
        #expect(
            recorder.take() == [
                "0 Car graph new", "1 Wheel graph new", "1 Wheel graph cached", "1 Engine container new",
            ])
        _ = try container.resolve(Car.self)
        #expect(
            recorder.take() == [
                "0 Car graph new", "1 Wheel graph new", "1 Wheel graph cached", "1 Engine container cached",
            ])
        _ = try container.resolve(Engine.self)
        #expect(recorder.take() == ["0 Engine container cached"])
    }

    @Test("The printed line: indentation, scope, outcome and location")
    func description() throws {
        let lines = Mutex<[String]>([])
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inScope(.container)
        container.register(Car.self) { r in Car(wheels: [], engine: try r.resolve(Engine.self)) }
        container.resolutionTrace = { event in lines.withLock { $0.append(event.description) } }
        _ = try container.resolve(Car.self)
        let printed = lines.withLock { $0 }
        #expect(printed.count == 2)
        #expect(printed.first?.hasPrefix("Car [graph] new (ContainerTraceTests.swift:") == true)
        #expect(printed.last?.hasPrefix("  Engine [container] new (ContainerTraceTests.swift:") == true)
    }

    @Test("A failing resolve is reported again when it fails, with its kind")
    func failure() {
        let recorder = Recorder()
        let container = Container()
        container.register(Engine.self) { _ in throw Failure() }
        container.register(Car.self) { r in Car(wheels: [], engine: try r.resolve(Engine.self)) }
        container.resolutionTrace = { recorder.record($0) }
        #expect(throws: ResolutionError.self) { try container.resolve(Car.self) }
        #expect(
            recorder.take() == [
                "0 Car graph new", "1 Engine graph new", "1 Engine graph failed factoryFailed",
                "0 Car graph failed factoryFailed",
            ])
    }

    @Test("Off by default and once set to nil; a child container has a trace of its own")
    func offAndChild() throws {
        let recorder = Recorder()
        let container = carContainer(tracedBy: recorder)
        let child = Container(parent: container)
        _ = try child.resolve(Car.self)
        #expect(recorder.take().isEmpty)
        container.resolutionTrace = nil
        #expect(container.resolutionTrace == nil)
        _ = try container.resolve(Car.self)
        #expect(recorder.take().isEmpty)
        child.resolutionTrace = { recorder.record($0) }
        _ = try child.resolve(Engine.self)
        #expect(recorder.take() == ["0 Engine container cached"])
    }

    @Test("Async resolves are traced, with the synchronous services they resolve")
    func asyncTrace() async throws {
        let recorder = Recorder()
        let container = Container()
        container.register(Wheel.self) { _ in Wheel() }
        container.register(Engine.self) { _ in
            await Task.yield()
            return Engine()
        }
        container.register(Car.self) { r in
            Car(wheels: [try await r.resolve(Wheel.self)], engine: try await r.resolve(Engine.self))
        }
        container.resolutionTrace = { recorder.record($0) }
        _ = try await container.resolveAsync(Car.self)
        #expect(recorder.take() == ["0 Car graph new", "1 Wheel graph new", "1 Engine graph new"])
    }

    @Test("verify() is traced too: its dry run of each registration")
    func verifyTrace() throws {
        let recorder = Recorder()
        let container = carContainer(tracedBy: recorder)
        try container.verify()
        let lines = recorder.take()
        #expect(lines.contains("0 Car graph new") && lines.contains("1 Engine container new"))
    }

    /// Resolves from another container when released.
    final class Resolving: Sendable {
        let other: Container
        init(other: Container) { self.other = other }
        deinit { _ = try? other.resolve(Engine.self) }
    }

    @Test("A trace closure that resolves, from this container or another, is not traced in turn")
    func closureResolves() throws {
        let recorder = Recorder()
        let container = carContainer(tracedBy: recorder)
        let other = Container()
        other.register(Engine.self) { _ in Engine() }
        container.resolutionTrace = { [unowned container] event in
            recorder.record(event)
            _ = try? other.resolve(Engine.self)
            _ = try? container.resolve(Engine.self)
        }
        _ = try container.resolve(Car.self)
        #expect(recorder.take().count == 4)
    }

    @Test("A singleton made earlier in the same resolve is traced as cached")
    func claimedEarlierIsCached() throws {
        let recorder = Recorder()
        let container = Container()
        container.register(Engine.self) { _ in Engine() }.inScope(.container)
        container.register(Car.self) { r in
            Car(wheels: [], engine: try r.resolve(Engine.self)).withSecond(try r.resolve(Engine.self))
        }
        container.resolutionTrace = { recorder.record($0) }
        _ = try container.resolve(Car.self)
        #expect(recorder.take() == ["0 Car graph new", "1 Engine container new", "1 Engine container cached"])
    }

    @Test("A resolve started by a deinit after a traced resolve ends is not traced into it")
    func deinitAfterTrace() throws {
        let recorder = Recorder()
        let other = Container()
        other.register(Engine.self) { _ in Engine() }
        let container = Container()
        container.register(Resolving.self) { _ in Resolving(other: other) }
        container.register(Wheel.self) { r in
            _ = try r.resolve(Resolving.self)
            return Wheel()
        }
        container.resolutionTrace = { recorder.record($0) }
        _ = try container.resolve(Wheel.self)
        #expect(recorder.take() == ["0 Wheel graph new", "1 Resolving graph new"])
    }
}

extension ContainerTraceTests.Car {
    /// The car, after checking `engine` is its own.
    func withSecond(_ engine: ContainerTraceTests.Engine) -> Self {
        precondition(engine === self.engine)
        return self
    }
}
