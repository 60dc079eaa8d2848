import TestFixtures
import Testing
import TraitInjection

extension TraitTests {
    @Suite("InjectorDefault")
    struct InjectorDefaultTests {
        @Test("A default set from one thread is seen from others")
        func setAndGetAcrossTasks() async {
            let cat = Pet(name: "Tom", species: "Cat")
            let injected = InjectorDefault(Pet.rover)
            await Task.detached { injected.value = cat }.value
            let seen = await Task.detached { injected.value }.value
            #expect(seen == cat)
        }

        @Test("withValue overrides the default for this task only")
        func taskLocalOverride() async {
            let injected = InjectorDefault("shared")
            await injected.withValue("mine") {
                #expect(injected.value == "mine")
                await withTaskGroup(of: String.self) { group in
                    group.addTask { injected.value }  // a child task inherits the override
                    for await value in group { #expect(value == "mine") }
                }
                let unrelated = await Task.detached { injected.value }.value
                #expect(unrelated == "shared")
            }
            #expect(injected.value == "shared")
        }

        @Test("Overrides of two defaults nest independently")
        func nestedOverrides() {
            let first = InjectorDefault(1)
            let second = InjectorDefault(2)
            first.withValue(10) {
                second.withValue(20) {
                    #expect(first.value == 10)
                    #expect(second.value == 20)
                }
                #expect(second.value == 2)
            }
        }

        @Test("A resolved default comes from Container.shared on each read, until it is set")
        func resolvedDefault() {
            let injected = InjectorDefault<Service>(.resolved(name: "vet"))
            let container = Container()
            container.register(Service.self, name: "vet") { _ in Service(number: 1) }.inScope(.transient)
            Container.withShared(container) {
                #expect(injected.value.number == 1)
                #expect(injected.value !== injected.value)  // transient: each read resolves
                injected.withValue(Service(number: 2)) { #expect(injected.value.number == 2) }
                injected.value = Service(number: 3)
                #expect(injected.value.number == 3)
            }
        }

        @Test("A trait whose default is resolved keeps, per instance, what its first read resolved")
        func traitWithResolvedDefault() {
            let container = Container()
            container.register(Service.self, name: "vet") { _ in Service(number: 7) }.inScope(.transient)
            Container.withShared(container) {
                let owner = Owner()
                let first = owner.vet
                #expect(first.number == 7)
                #expect(owner.vet === first)
                #expect(Owner().vet !== first)
            }
        }
    }
}
