// The *Declaring services* article's samples, run in order, with checks of what their comments say.
import TraitInjection
import TraitInjectionDiagnostics

final class Database: Sendable {
    let path: String
    init(path: String) { self.path = path }
}

final class ProfileStore: Sendable {
    let database: Database
    init(database: Database) { self.database = database }
}

struct Greeter {
    let greeting: String
    init(_ greeting: String) { self.greeting = greeting }
}

final class Catalog: Sendable {
    static func open() async -> Catalog {
        await Task.yield()
        return Catalog()
    }
}

struct Shelf {
    let catalog: Catalog
}

// sample-begin
extension Container {
    var database: Registered<Database> {
        self { _ in Database(path: "app.sqlite") }.inScope(.container)
    }
    var profile: Registered<ProfileStore> {
        self { r in ProfileStore(database: try r.database()) }
    }
    var greeter: RegisteredWith<String, Greeter> {
        self { _, greeting in Greeter(greeting) }
    }
}
// sample-end

// sample-begin
let profile = try Container.shared.profile()
let greeter = try Container.shared.greeter("Hi")
// sample-end

let database = try Container.shared.database()
precondition(profile.database === database)
precondition(profile.database.path == "app.sqlite")
precondition(greeter.greeting == "Hi")

// sample-begin
final class ProfileScreen {
    @Inject(\.profile) var profile: ProfileStore
}
// sample-end

precondition(ProfileScreen().profile.database === database)

// sample-begin
extension Container {
    var catalog: Registered<Catalog> {
        self { _ in await Catalog.open() }.inScope(.container)
    }
    var shelf: Registered<Shelf> {
        self { r in Shelf(catalog: try await r.catalog.resolveAsync()) }
    }
}

let shelf = try await Container.shared.shelf.resolveAsync()
// sample-end

let catalog = try await Container.shared.catalog.resolveAsync()
precondition(shelf.catalog === catalog)

protocol Clock: Sendable {
    var isFixed: Bool { get }
}

struct SystemClock: Clock {
    var isFixed: Bool { false }
}

struct FixedClock: Clock {
    var isFixed: Bool { true }
}

protocol Analytics: Sendable {}
struct ConsoleAnalytics: Analytics {}

// sample-begin
extension Container {
    var clock: Registered<any Clock> {
        self { _ in SystemClock() }
            .onTest { _ in FixedClock() }
            .onPreview { _ in FixedClock() }
            .onArgument("-fixed-clock") { _ in FixedClock() }
    }
}
// sample-end

let systemClock = try Container().clock()  // an app launched without the argument
RunContext.set(arguments: ["DeclaringArticle", "-fixed-clock"])
let fixedClock = try Container().clock()
RunContext.reset()
precondition(!systemClock.isFixed && fixedClock.isFixed)

// sample-begin
Container.shared.database.register { _ in Database(path: ":memory:") }
let scratch = try Container.shared.database()  // the in-memory one

Container.shared.database.reset()  // the default again, made anew
// sample-end

precondition(scratch.path == ":memory:")
let again = try Container.shared.database()
precondition(again.path == "app.sqlite" && again !== profile.database)
// sample-begin
extension Container {
    var analytics: Registered<any Analytics> { promised() }
}

// Where the app starts:
Container.shared.analytics.register { _ in ConsoleAnalytics() }
// sample-end

// sample-begin
let report = try Container.shared.verify(including: \.database, \.profile, \.analytics)
// sample-end

let provided = try Container.shared.analytics()
precondition(report.problems.isEmpty && provided is ConsoleAnalytics)
@MainActor
final class ProfileModel {
    let profile: ProfileStore
    let title: String
    init(profile: ProfileStore, title: String = "Profile") {
        self.profile = profile
        self.title = title
    }
}

// sample-begin
extension Container {
    var profileModel: Registered<ProfileModel> {
        self { @MainActor r in ProfileModel(profile: try r.profile()) }
            .onPreview { @MainActor r in ProfileModel(profile: try r.profile(), title: "Preview") }
    }
}

let model = try await Container.shared.profileModel.resolveAsync()  // made on the main actor
// sample-end

precondition(model.title == "Profile" && model.profile.database.path == "app.sqlite")
let onMain = try Container.shared.profileModel()  // top-level code runs on the main actor
precondition(onMain !== model)
let elsewhere = await Task.detached { () -> ResolutionError.Kind? in
    do {
        _ = try Container.shared.profileModel()
        return nil
    } catch let error as ResolutionError {
        return error.kind
    } catch {
        return nil
    }
}.value
precondition(elsewhere == .needsMainActor)

final class PaymentProcessor: Sendable {}

struct Checkout {
    let processor: PaymentProcessor
    let profile: ProfileStore
}

// sample-begin
struct PaymentServices: ServiceContainer {
    static let shared = PaymentServices()
}

extension PaymentServices {
    var processor: Registered<PaymentProcessor> {
        self { _ in PaymentProcessor() }.inScope(.container)
    }
    var checkout: Registered<Checkout> {
        self { r in Checkout(processor: try r[\PaymentServices.processor](), profile: try r.profile()) }
    }
}

let checkout = try PaymentServices.shared.checkout()
// sample-end

let processor = try PaymentServices.shared.processor()
let sharedDatabase = try Container.shared.database()
precondition(checkout.processor === processor && checkout.profile.database === sharedDatabase)
print("Declaring services: ok")
