import Swinject

// Swinject 2.10.0's registrations for the comparison rows, the same as TraitInjection's
// (`TraitInjectionFixtures.swift`).

/// The services of the transient, singleton, 4-object graph and one-argument rows.
func makeSwinjectContainer() -> Swinject.Container {
    let container = Swinject.Container()
    container.register(TransientService.self) { _ in TransientService() }.inObjectScope(.transient)
    container.register(SingletonService.self) { _ in SingletonService() }.inObjectScope(.container)
    container.register(OtherSingletonService.self) { _ in OtherSingletonService() }.inObjectScope(.container)
    container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.graph)
    container.register(Middle.self) { r in Middle(leaf: r.resolve(Leaf.self)!) }.inObjectScope(.transient)
    container.register(Root.self) { r in Root(left: r.resolve(Middle.self)!, right: r.resolve(Middle.self)!) }
        .inObjectScope(.graph)
    container.register(Greeter.self) { (_, times: Int) in Greeter(times) }.inObjectScope(.graph)
    return container
}

/// `makeSwinjectContainer()` with its two singletons made.
func makeWarmSwinjectContainer() -> Swinject.Container {
    let container = makeSwinjectContainer()
    _ = container.resolve(SingletonService.self)!
    _ = container.resolve(OtherSingletonService.self)!
    return container
}

/// The same named registrations in Swinject.
func makeNamedSwinjectContainer(count: Int) -> Swinject.Container {
    let container = Swinject.Container()
    for index in 0..<count {
        container.register(TransientService.self, name: namedKey(index)) { _ in TransientService() }
            .inObjectScope(.transient)
    }
    return container
}

/// The same chain in Swinject.
func makeChainSwinjectContainer() -> Swinject.Container {
    let container = Swinject.Container()
    for index in 0..<chainLength {
        let next = index + 1 < chainLength ? linkName(index + 1) : nil
        container.register(Link.self, name: linkName(index)) { r in
            Link(next: next.map { r.resolve(Link.self, name: $0)! })
        }
        .inObjectScope(.transient)
    }
    return container
}

/// A synchronized view of `makeWarmSwinjectContainer()`: what two threads may resolve from at once
/// (the container itself is not thread-safe).
///
/// `@unchecked Sendable`: a synchronized Swinject resolver takes the container's recursive lock
/// for each resolve, which is what makes sharing it between threads safe.
struct SynchronizedSwinject: @unchecked Sendable {
    let resolver: any Swinject.Resolver

    init() {
        resolver = makeWarmSwinjectContainer().synchronize()
    }
}
