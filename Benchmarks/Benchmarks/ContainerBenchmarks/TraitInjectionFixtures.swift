import TraitInjection

// TraitInjection's registrations for the comparison rows; `SwinjectFixtures.swift`,
// `PlainFixtures.swift` and `FactoryFixtures.swift` register the same services the same way.

/// The services of the transient, singleton, 4-object graph and one-argument rows.
func makeTraitContainer() -> TraitInjection.Container {
    let container = TraitInjection.Container()
    container.register(TransientService.self) { _ in TransientService() }.inScope(.transient)
    container.register(SingletonService.self) { _ in SingletonService() }.inScope(.container)
    container.register(OtherSingletonService.self) { _ in OtherSingletonService() }.inScope(.container)
    container.register(Leaf.self) { _ in Leaf() }
    container.register(Middle.self) { r in Middle(leaf: try r.resolve(Leaf.self)) }.inScope(.transient)
    container.register(Root.self) { r in
        Root(left: try r.resolve(Middle.self), right: try r.resolve(Middle.self))
    }
    container.register(Greeter.self) { (_, times: Int) in Greeter(times) }
    return container
}

/// `makeTraitContainer()` with its two singletons made, before the benchmarks measure anything.
func makeWarmContainer() -> TraitInjection.Container {
    let container = makeTraitContainer()
    _ = must { try container.resolve(SingletonService.self) }
    _ = must { try container.resolve(OtherSingletonService.self) }
    return container
}

/// A container with `count` named registrations of one type, names of equal length.
func makeNamedContainer(count: Int) -> TraitInjection.Container {
    let container = TraitInjection.Container()
    for index in 0..<count {
        container.register(TransientService.self, name: namedKey(index)) { _ in TransientService() }
            .inScope(.transient)
    }
    return container
}

/// A chain of `chainLength` transient links, each resolving the next by name.
func makeChainContainer() -> TraitInjection.Container {
    let container = TraitInjection.Container()
    for index in 0..<chainLength {
        let next = index + 1 < chainLength ? linkName(index + 1) : nil
        container.register(Link.self, name: linkName(index)) { r in
            Link(next: try next.map { try r.resolve(Link.self, name: $0) })
        }
        .inScope(.transient)
    }
    return container
}
