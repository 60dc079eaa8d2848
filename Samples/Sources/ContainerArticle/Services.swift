// The services the *Container* article's samples use.

import TraitInjection

protocol Animal: Sendable { var name: String { get } }
struct Cat: Animal { let name: String }
struct Dog: Animal { let name: String }

protocol Person { var name: String { get } }
struct PetOwner: Person {
    let name: String
    let pet: any Animal
}

struct Greeter {
    let greeting: String
    let times: Int
}

protocol ParentProtocol: AnyObject {}
protocol ChildProtocol: AnyObject {}
final class Parent: ParentProtocol {
    let child: any ChildProtocol
    init(child: any ChildProtocol) { self.child = child }
}
final class Child: ChildProtocol {
    weak var parent: (any ParentProtocol)?
}

final class RestaurantLister {}

protocol Client: AnyObject {}
protocol Server: AnyObject {}

struct Greeting: Sendable {
    let text: String
}

struct Welcome {
    let greeting: Greeting
    let pet: any Animal

    init(greeting: Greeting, pet: Animal) {
        self.greeting = greeting
        self.pet = pet
    }
}

final class PDFExporter: Sendable {}
final class Upload {}

final class ReportScreen {
    let exporter: Lazy<PDFExporter>
    let makeUpload: Provider<Upload>

    init(exporter: Lazy<PDFExporter>, makeUpload: Provider<Upload>) {
        self.exporter = exporter
        self.makeUpload = makeUpload
    }
}

final class Analytics {}
struct Checkout { let analytics: Analytics? }

protocol Reading: Sendable {}
protocol Writing: Sendable {}
final class FileStore: Reading, Writing {}
