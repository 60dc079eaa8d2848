// The one-service app: a protocol, an implementation registered for it, one resolve.
import FactoryKit

protocol Greeter {
    func greet() -> String
}

final class EnglishGreeter: Greeter {
    func greet() -> String { "Hello" }
}

extension Container {
    var greeter: Factory<Greeter> { self { EnglishGreeter() } }
}

print(Container.shared.greeter().greet())
