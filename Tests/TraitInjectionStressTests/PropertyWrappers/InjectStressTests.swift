import TestFixtures
import Testing
import TraitInjection

@Suite("@Inject concurrency stress")
struct InjectStressTests {
    @Test("Concurrent first access from many tasks yields one instance that every task sees")
    func concurrentFirstAccess() async {
        let container = Container()
        let creations = Counter()
        container.register(Service.self) { _ in
            creations.increment()
            usleepCompat(100)
            return Service(number: creations.count)
        }
        .inScope(.transient)
        for _ in 0..<20 {
            let screen = Screen()
            let identities = await Container.withShared(container) {
                await withTaskGroup(of: ObjectIdentifier.self) { group in
                    for _ in 0..<16 {
                        group.addTask { ObjectIdentifier(screen.service) }
                    }
                    return await group.reduce(into: Set()) { $0.insert($1) }
                }
            }
            #expect(identities.count == 1)
            #expect(identities.first == ObjectIdentifier(screen.service))
        }
        // Several tasks may have run the factory at once; only one value per screen was kept.
        #expect(creations.count >= 20)
    }

    @Test("Concurrent first access to a weak property yields one object")
    func concurrentWeakFirstAccess() async throws {
        let container = Container()
        container.register(Counter.self) { _ in
            usleepCompat(50)
            return Counter()
        }
        .inScope(.transient)
        let kept = Counter()
        let observer = Observer()
        try await Container.withShared(container) {
            let first = try #require(try observer.$counter.resolve())
            let identities = await withTaskGroup(of: ObjectIdentifier?.self) { group in
                for _ in 0..<16 {
                    group.addTask { observer.counter.map(ObjectIdentifier.init) }
                }
                return await group.reduce(into: Set()) { $0.insert($1) }
            }
            #expect(identities == [ObjectIdentifier(first)])
            kept.increment()
        }
        #expect(kept.count == 1)
    }

    @Test("Tasks with different shared containers resolve from their own, at the same time")
    func sharedContainersPerTask() async {
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for number in 0..<32 {
                group.addTask {
                    let container = Container()
                    container.register(Service.self) { _ in Service(number: number) }
                    return await Container.withShared(container) {
                        var mismatches = 0
                        for _ in 0..<50 {
                            await Task.yield()
                            if Screen().service.number != number { mismatches += 1 }
                        }
                        return mismatches
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test("Auto-injection from many tasks at once builds one pair per resolve")
    func concurrentAutoInjection() async {
        let container = Container()
        container.register((any InjectedClient).self) { _ in AutoClient() }
        container.register((any InjectedServer).self) { _ in AutoServer() }
        let broken = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var broken = 0
                    for _ in 0..<200 {
                        guard let client = try? container.resolve((any InjectedClient).self),
                            client.server.client === client
                        else {
                            broken += 1
                            continue
                        }
                    }
                    return broken
                }
            }
            return await group.reduce(0, +)
        }
        #expect(broken == 0)
    }
}
