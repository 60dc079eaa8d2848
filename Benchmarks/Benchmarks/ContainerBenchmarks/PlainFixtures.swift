// The plain baseline's registrations for the comparison rows, the same as TraitInjection's
// (`TraitInjectionFixtures.swift`). The baseline takes no runtime arguments: it has no
// one-argument row.

/// The services of the transient, singleton and 4-object graph rows.
func makePlainContainer() -> PlainContainer {
    let container = PlainContainer()
    container.register(TransientService.self, scope: .transient) { _ in TransientService() }
    container.register(SingletonService.self, scope: .container) { _ in SingletonService() }
    container.register(OtherSingletonService.self, scope: .container) { _ in OtherSingletonService() }
    container.register(Leaf.self) { _ in Leaf() }
    container.register(Middle.self, scope: .transient) { r in Middle(leaf: try r.resolve(Leaf.self)) }
    container.register(Root.self) { r in
        Root(left: try r.resolve(Middle.self), right: try r.resolve(Middle.self))
    }
    return container
}

/// `makePlainContainer()` with its two singletons made.
func makeWarmPlainContainer() -> PlainContainer {
    let container = makePlainContainer()
    _ = must { try container.resolve(SingletonService.self) }
    _ = must { try container.resolve(OtherSingletonService.self) }
    return container
}

/// The same named registrations in the plain baseline.
func makeNamedPlainContainer(count: Int) -> PlainContainer {
    let container = PlainContainer()
    for index in 0..<count {
        container.register(TransientService.self, name: namedKey(index), scope: .transient) { _ in
            TransientService()
        }
    }
    return container
}

/// The same chain in the plain baseline.
func makeChainPlainContainer() -> PlainContainer {
    let container = PlainContainer()
    for index in 0..<chainLength {
        let next = index + 1 < chainLength ? linkName(index + 1) : nil
        container.register(Link.self, name: linkName(index), scope: .transient) { r in
            Link(next: try next.map { try r.resolve(Link.self, name: $0) })
        }
    }
    return container
}
