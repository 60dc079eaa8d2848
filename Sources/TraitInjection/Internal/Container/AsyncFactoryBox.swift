/// An async factory with its exact argument types, so that an async resolve calls it without a
/// dynamic cast.
final class AsyncFactoryBox<Service, each Argument>: Sendable {
    let make: @Sendable (AsyncResolution, repeat each Argument) async throws -> Service

    init(_ make: @escaping @Sendable (AsyncResolution, repeat each Argument) async throws -> Service) {
        self.make = make
    }
}

/// How an async resolve runs a main-actor registration: on the main actor, whatever the
/// isolation of the resolve. Made where `Service` and the arguments are known to be `Sendable`,
/// which crossing to the main actor and back needs.
final class MainActorHop<Service, each Argument>: Sendable {
    /// Resolves the registration of `Service` under the name from the container, on the main
    /// actor, as a synchronous top-level resolve (a dry run if asked, whose findings go to the
    /// ``DryRunFindings`` given).
    let resolve:
        @Sendable (Container, String?, Bool, DryRunFindings?, repeat each Argument) async throws(ResolutionError) ->
            Service

    init(
        resolve:
            @escaping @Sendable (Container, String?, Bool, DryRunFindings?, repeat each Argument)
            async throws(ResolutionError) -> Service
    ) {
        self.resolve = resolve
    }
}
