// Must not compile: a `.container` instance is shared by every thread, so its service must be
// `Sendable`. `.ci/run` checks that the compiler says so.
import TraitInjection

final class Cache {
    var entries: [String: String] = [:]
}

func register(_ container: Container) {
    container.register(Cache.self) { _ in Cache() }.inScope(.container)
}
