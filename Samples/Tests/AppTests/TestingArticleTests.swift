@testable import App
import Testing
import TraitInjection
import TraitInjectionTesting

// sample-begin
@Test(.injectorDefault(PetInjector.pet, Pet(name: "Tom", species: "Cat")))
func catsByDefault() {
    #expect(Person(name: "Jen").pet.species == "Cat")
}

@Test(.container)   // its own container and defaults, nothing registered up front
func setsItsOwnDefault() {
    PetInjector.defaultPet = Pet(name: "Rex", species: "Dog")   // not seen by other tests
    #expect(Person(name: "Jen").pet.name == "Rex")
}
// sample-end

// sample-begin
@Suite(.container { $0.register(TaxRate.self) { _ in TaxRate(percent: 20) } })
struct CheckoutTests {
    init() {
        // In each test's own container.
        Container.shared.register(Cart.self) { r in Cart(taxRate: try r.resolve(TaxRate.self)) }
    }

    @Test func total() throws {
        #expect(try Container.shared.resolve(Cart.self).total(of: 100) == 120)
    }

    @Test(.container { $0.register(TaxRate.self) { _ in TaxRate(percent: 0) } })
    func totalTaxFree() throws {
        #expect(try Container.shared.resolve(Cart.self).total(of: 100) == 100)
    }
}
// sample-end

@Test func isolationByHand() {
    // sample-begin
    let container = Container(parent: .shared)
    container.register(RestaurantLister.self) { _ in StubLister(count: 3) }
    Container.withShared(container) {
        PetInjector.pet.withValue(Pet(name: "Tom", species: "Cat")) {
            // This task sees the stub and Tom.
        }
    }
    // sample-end
}

@Test(.container(inheritingRegistrations: false) { _ in })
func unresolvablePropertyMessage() throws {
    // sample-begin
    let error = try #require(throws: InjectionError.self) {
        try RestaurantListViewController().$lister.resolve()
    }
    #expect(error.location == "RestaurantListViewController.swift:7")
    // sample-end
}

// The override of *Generating traits*.
@Test func overrideInATest() {
    // sample-begin
    PetInjector.pet.withValue(Pet(name: "Tom", species: "Cat")) {
        #expect(Person(name: "Jen").pet.name == "Tom")
    }
    // sample-end
}
