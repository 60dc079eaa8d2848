import TestFixtures
import Testing
import TraitInjection

/// A class shared across tasks. Its identifier is only ever read (class setters never replace it),
/// so concurrent trait access through the typed API is safe.
final class SharedKennel: Injected, @unchecked Sendable {
    var injectableIdentifier = InjectableIdentifier()
}

extension TraitStoreStress {
    @Suite("Trait store: concurrency stress")
    struct TraitStoreStressTests {
        static let tasks = 8
        static let operations = 2_000

        @Test("Distinct instances in many tasks: every read sees the task's last write")
        func distinctInstances() async {
            let before = Injectable.storedTraitCount
            let finals = await withTaskGroup(of: (Int, Owner).self) { group in
                for task in 0..<Self.tasks {
                    group.addTask {
                        var owner = Owner()
                        for operation in 0..<Self.operations {
                            owner.pet.name = "\(task)-\(operation)"
                            owner.toy = "toy \(operation)"
                            if owner.pet.name != "\(task)-\(operation)" || owner.toy != "toy \(operation)" {
                                Issue.record("task \(task) lost its write \(operation)")
                            }
                            if operation.isMultiple(of: 10) {
                                var copy = owner
                                copy.pet.name = "copy"
                                if owner.pet.name != "\(task)-\(operation)" || copy.toy != "toy \(operation)" {
                                    Issue.record("copy-on-write crossed values in task \(task)")
                                }
                            }
                        }
                        return (task, owner)
                    }
                }
                var finals: [Int: Owner] = [:]
                for await (task, owner) in group { finals[task] = owner }
                return finals
            }
            for (task, owner) in finals {
                #expect(owner.pet.name == "\(task)-\(Self.operations - 1)")
                #expect(owner.toy == "toy \(Self.operations - 1)")
            }
            // The owners are alive here (an optimised build may end their lifetimes at their last use).
            withExtendedLifetime(finals) {
                #expect(Injectable.storedTraitCount == before + 2 * Self.tasks)
            }
        }

        @Test("Copies of one shared struct in many tasks: each copy diverges, the original never changes")
        func sharedStructCopies() async {
            var original = Owner()
            original.pet.name = "Original"
            original.toy = "original toy"
            let base = original
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<Self.tasks {
                    group.addTask {
                        for operation in 0..<Self.operations / 4 {
                            var copy = base
                            if copy.pet.name != "Original" { Issue.record("copy saw a foreign pet") }
                            copy.toy = "\(task)-\(operation)"
                            copy.nickname = "n\(task)"
                            if copy.toy != "\(task)-\(operation)" || copy.pet.name != "Original"
                                || copy.nickname != "n\(task)"
                            {
                                Issue.record("copy lost a trait in task \(task)")
                            }
                            if base.toy != "original toy" { Issue.record("a copy's write reached the original") }
                        }
                    }
                }
            }
            #expect(original.pet.name == "Original")
            #expect(original.toy == "original toy")
            #expect(original.nickname == nil)
        }

        @Test("One shared object written and read from many tasks ends with a written value")
        func sharedObject() async {
            let kennel = SharedKennel()
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<Self.tasks {
                    group.addTask {
                        for operation in 0..<Self.operations {
                            kennel[trait: ToyTrait.self] = "\(task)-\(operation)"
                            let seen = kennel[trait: ToyTrait.self]
                            if seen != "ball" && !seen.contains("-") { Issue.record("torn value \(seen)") }
                            _ = kennel[trait: SnackTrait.self]
                        }
                    }
                }
            }
            let final = kennel[trait: ToyTrait.self]
            #expect((0..<Self.tasks).map { "\($0)-\(Self.operations - 1)" }.contains(final))
            #expect(kennel[trait: SnackTrait.self] == "biscuit")
        }

        @Test("Instances created and dropped in many tasks while others read leave nothing behind")
        func churn() async {
            let before = Injectable.storedTraitCount
            let survivor = Owner()
            _ = survivor.pet
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<Self.tasks {
                    group.addTask {
                        for operation in 0..<Self.operations {
                            var owner = Owner()
                            owner.pet.name = "\(task)"
                            owner.toy = "\(operation)"
                            if task.isMultiple(of: 2) { Injectable.pruneInjectedValues() }
                            if survivor.pet != .rover { Issue.record("survivor changed") }
                        }
                    }
                }
            }
            withExtendedLifetime(survivor) {
                #expect(Injectable.storedTraitCount == before + 1)
            }
        }
    }
}
