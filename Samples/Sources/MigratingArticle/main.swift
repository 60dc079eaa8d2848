// The *Migrating* article's samples, run in order, with checks of what their comments say.
import TraitInjection

// sample-begin
struct StorageAssembly: Assembly {
    func assemble(into container: Container) {
        container.register(Database.self) { _ in Database() }.inScope(.container)
        container.register(Report.self) { (r, title: String) in
            Report(title: title, database: try r.resolve(Database.self))
        }
    }
}

let container = Container(assemblies: [StorageAssembly()])
let report = try container.resolve(Report.self, arguments: "Sales")
// sample-end

let reportDatabase = try container.resolve(Database.self)
precondition(report.title == "Sales" && report.database === reportDatabase)
container.register(Child.self) { _ in Child() }

// sample-begin
container.register(Parent.self) { _ in Parent() }
    .initCompleted { r, parent in parent.child = try r.resolve(Child.self) }
// sample-end

let parent = try container.resolve(Parent.self)
precondition(parent.child != nil)

// sample-begin
let later = try container.resolve(Lazy<Database>.self)
let database = try later.value
let makeChild = try container.resolve(Provider<Child>.self)  // a new Child on each call
// sample-end

let (firstChild, secondChild) = (try makeChild(), try makeChild())
precondition(database === reportDatabase && firstChild !== secondChild)

// sample-begin
container.register(FileStore.self) { _ in FileStore() }
    .inScope(.container)
    .implements((any Reading).self) { $0 }
// sample-end

let reading = try container.resolve((any Reading).self)
let fileStore = try container.resolve(FileStore.self)
precondition(reading as? FileStore === fileStore)

// sample-begin
container.resetScopedInstance(of: Database.self)  // resetObjectScope(_:serviceType:)
container.resetScopedInstances()  // every scope of this container, not its parent's

if !container.hasRegistration(Analytics.self) {
    container.register(Analytics.self) { _ in Analytics() }
}
let analytics = try container.resolve(Analytics?.self)  // nil if registered nowhere
// sample-end

let newDatabase = try container.resolve(Database.self)
precondition(analytics != nil && newDatabase !== reportDatabase)

// sample-begin
final class ReportViewController {
    @Inject var database: Database
}

let controller = ReportViewController()
try container.autoInject(into: controller)
// sample-end

precondition(controller.database === newDatabase)

// sample-begin
let shared = try Container.shared.database()
let sales = try Container.shared.report("Sales")
Container.shared.analytics.register { _ in Analytics() }  // where the app starts
// sample-end

let (sharedAgain, firstAnalytics, secondAnalytics) = (
    try Container.shared.database(), try Container.shared.analytics(), try Container.shared.analytics()
)
precondition(sharedAgain === shared && sales.database === shared && firstAnalytics !== secondAnalytics)

// sample-begin
final class SalesScreen {
    @Inject(\.database) var database: Database  // @Injected, @LazyInjected
    @WeakInject(\.database) var kept: Database?  // @WeakLazyInjected
}
// sample-end

let screen = SalesScreen()
precondition(screen.database === shared && screen.kept === shared)

print("The Migrating article's samples ran.")
