// The one-service app: a protocol, an implementation registered for it, one resolve.
import TraitInjection

protocol Greeter {
    func greet() -> String
}

final class EnglishGreeter: Greeter {
    func greet() -> String { "Hello" }
}

let container = Container()
container.register(Greeter.self) { _ in EnglishGreeter() }
print(try container.resolve(Greeter.self).greet())
