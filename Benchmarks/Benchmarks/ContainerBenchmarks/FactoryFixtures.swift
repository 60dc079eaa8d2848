#if FACTORY
    import FactoryKit

    // Factory 3.2.2's registrations for the comparison rows, the same as TraitInjection's
    // (`TraitInjectionFixtures.swift`), in Factory's own form: each service a computed property of
    // `Container` whose factory and scope are declared where it is, and evaluated on each resolve.
    // Factory's scopes for TraitInjection's: `.unique` (Factory's default) for `.transient`,
    // `.graph` for `.graph`, `.singleton` for a `.container` singleton. Factory has no names: it
    // keys a registration by its property, so it has no named or chain rows.
    //
    // Each row resolves from a `Container` of its own made in its setup, as the other libraries'
    // rows do, rather than `Container.shared` (a task-local, read on each access). A container marks
    // itself as having graph-scoped services the first time it resolves one, and from then on takes
    // a global lock for each resolve: only the 4-object graph row's container does.

    extension FactoryKit.Container {
        var transientService: Factory<TransientService> {
            self { TransientService() }
        }

        var singletonService: Factory<SingletonService> {
            self { SingletonService() }.singleton
        }

        var otherSingletonService: Factory<OtherSingletonService> {
            self { OtherSingletonService() }.singleton
        }

        var leaf: Factory<Leaf> {
            self { Leaf() }.graph
        }

        var middle: Factory<Middle> {
            self { Middle(leaf: self.leaf()) }
        }

        var root: Factory<Root> {
            self { Root(left: self.middle(), right: self.middle()) }.graph
        }

        var greeter: ParameterFactory<Int, Greeter> {
            self { Greeter($0) }
        }
    }

    /// A Factory container whose two singletons are made.
    ///
    /// Factory keeps `.singleton` instances in one cache for every container, so each container of the
    /// singleton rows finds them made.
    func makeWarmFactoryContainer() -> FactoryKit.Container {
        let container = FactoryKit.Container()
        _ = container.singletonService()
        _ = container.otherSingletonService()
        return container
    }
#endif
