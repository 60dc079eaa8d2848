import TestFixtures
import Testing
import TraitInjection

@Suite("@Inject: properties resolved from the shared container")
struct InjectTests {
    @Test("Seed 003: a view controller's lister is injected from Container.shared")
    func seedListerInjection() {
        let container = Container()
        container.register(RestaurantLister.self) { _ in
            RestaurantLister(restaurants: ["Noma", "Geranium", "Alchemist"])
        }
        Container.withShared(container) {
            let viewController = RestaurantListViewController()
            #expect(viewController.restaurantCount == 3)
        }
    }

    @Test("The service is resolved on first access, not when the instance is created")
    func resolvesOnFirstAccess() {
        let container = Container()
        let creations = Counter()
        Container.withShared(container) {
            let viewController = RestaurantListViewController()
            container.register(RestaurantLister.self) { _ in
                creations.increment()
                return RestaurantLister()
            }
            #expect(creations.count == 0)
            #expect(viewController.restaurantCount == 2)
            #expect(creations.count == 1)
        }
    }

    @Test("Later accesses return the instance resolved first, even for a transient service")
    func keepsTheFirstInstance() {
        let container = Container()
        container.register(RestaurantLister.self) { _ in RestaurantLister() }.inScope(.transient)
        Container.withShared(container) {
            let viewController = RestaurantListViewController()
            let first = viewController.lister
            #expect(viewController.lister === first)
            #expect(RestaurantListViewController().lister !== first)
        }
    }

    @Test("The property keeps its service while its holder lives, and lets it go with the holder")
    func releasedWithItsHolder() {
        let container = Container()
        container.register(RestaurantLister.self) { _ in RestaurantLister() }.inScope(.transient)
        weak var resolved: RestaurantLister?
        weak var replaced: RestaurantLister?
        Container.withShared(container) {
            var viewController: RestaurantListViewController? = RestaurantListViewController()
            resolved = viewController?.lister
            #expect(resolved != nil)
            viewController?.lister = RestaurantLister(restaurants: ["Set"])
            replaced = viewController?.lister
            #expect(resolved == nil)  // Setting lets go of the resolved value.
            #expect(replaced != nil)
            viewController = nil
        }
        #expect(replaced == nil)
    }

    @Test("Setting the property overrides the resolved value")
    func settable() {
        let stub = RestaurantLister(restaurants: ["Stub"])
        let viewController = RestaurantListViewController()
        viewController.lister = stub  // Nothing is registered: it is never resolved.
        #expect(viewController.lister === stub)
        #expect(viewController.restaurantCount == 1)
    }

    @Test("A struct copy that sets its property diverges; unset copies share the resolved value")
    func structCopies() {
        let container = Container()
        container.register(Service.self) { _ in Service(number: 1) }.inScope(.transient)
        Container.withShared(container) {
            let original = Screen()
            var copy = original
            #expect(copy.service === original.service)
            copy.service = Service(number: 2)
            #expect(copy.service.number == 2)
            #expect(original.service.number == 1)
        }
    }

    @Test("@Inject(name:) and @Inject(arguments:) resolve those registrations")
    func namesAndArguments() {
        let container = Container()
        container.register(Service.self) { _ in Service(number: 0) }
        container.register(Service.self, name: "special") { _ in Service(number: 7) }
        container.register(String.self) { (_, times: Int, text: String) in String(repeating: text, count: times) }
        Container.withShared(container) {
            let screen = NamedScreen()
            #expect(screen.special.number == 7)
            #expect(screen.greeting == "xxx")
        }
    }

    @Test("An unresolvable property reports the ResolutionError and where it is declared")
    func unresolvableReportsItsLocation() throws {
        let properties = Unresolvable()
        let error = try #require(throws: InjectionError.self) {
            try Container.withShared(Container()) { try properties.$missing.resolve() }
        }
        #expect(error.location == "PropertyWrapperFixtures.swift:\(Unresolvable.missingLine)")
        #expect(error.resolutionError?.kind == .notRegistered)
        #expect(
            error.description == """
                @Inject property at PropertyWrapperFixtures.swift:\(Unresolvable.missingLine) could not be \
                resolved: Counter is not registered. No registration exists for this type: register it with \
                `container.register(…) { resolver in … }`.
                """
        )
    }

    @Test("A failed resolve leaves the property unresolved, so a later access can succeed")
    func failureIsNotKept() {
        let properties = Unresolvable()
        let container = Container()
        Container.withShared(container) {
            #expect(throws: InjectionError.self) { try properties.$missing.resolve() }
            container.register(Counter.self) { _ in Counter() }
            #expect(properties.missing.count == 0)
        }
    }

    @Test("The shared container is the one current when the property is first accessed")
    func resolvesFromTheCurrentSharedContainer() {
        let first = Container()
        first.register(Service.self) { _ in Service(number: 1) }
        let second = Container()
        second.register(Service.self) { _ in Service(number: 2) }
        let screen = Screen()
        Container.withShared(second) { #expect(screen.service.number == 2) }
        Container.withShared(first) { #expect(screen.service.number == 2) }  // kept
    }
}
