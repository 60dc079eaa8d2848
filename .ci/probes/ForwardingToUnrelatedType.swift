// Must not compile: `FileStore` is no `Reading`, so it cannot be reached as one. `.ci/run` checks
// that the compiler says so, at registration.
import TraitInjection

protocol Reading {}

final class FileStore: Sendable {}

func register(_ container: Container) {
    container.register(FileStore.self) { _ in FileStore() }.implements((any Reading).self) { $0 }
}
