import Synchronization
import TestFixtures
import Testing
import TraitInjection

/// Swinject's `EmploymentAssembly`: an employer and its employee need each other, and both take
/// their customer directly, through a `Lazy` and through a `Provider`.
final class Customer: Sendable {}

final class Employee: @unchecked Sendable {
    let customer: Customer
    let lazyCustomer: Lazy<Customer>
    let providedCustomer: Provider<Customer>
    /// Strong, as in Swinject's: each test breaks the cycle.
    var employer: Employer?

    init(customer: Customer, lazyCustomer: Lazy<Customer>, providedCustomer: Provider<Customer>) {
        self.customer = customer
        self.lazyCustomer = lazyCustomer
        self.providedCustomer = providedCustomer
    }
}

final class Employer: Sendable {
    let customer: Customer
    let lazyCustomer: Lazy<Customer>
    let employee: Employee
    let lazyEmployee: Lazy<Employee>
    let providedEmployee: Provider<Employee>

    init(
        customer: Customer, lazyCustomer: Lazy<Customer>, employee: Employee, lazyEmployee: Lazy<Employee>,
        providedEmployee: Provider<Employee>
    ) {
        self.customer = customer
        self.lazyCustomer = lazyCustomer
        self.employee = employee
        self.lazyEmployee = lazyEmployee
        self.providedEmployee = providedEmployee
    }
}

struct EmploymentAssembly: Assembly {
    let scope: Scope<Customer>

    func assemble(into container: Container) {
        container.register(Customer.self) { _ in Customer() }.inScope(scope)
        container.register(Employee.self) { r in
            Employee(
                customer: try r.resolve(Customer.self), lazyCustomer: try r.resolve(Lazy<Customer>.self),
                providedCustomer: try r.resolve(Provider<Customer>.self))
        }
        .initCompleted { r, employee in employee.employer = try r.resolve(Employer.self) }
        container.register(Employer.self) { r in
            Employer(
                customer: try r.resolve(Customer.self), lazyCustomer: try r.resolve(Lazy<Customer>.self),
                employee: try r.resolve(Employee.self), lazyEmployee: try r.resolve(Lazy<Employee>.self),
                providedEmployee: try r.resolve(Provider<Employee>.self))
        }
    }
}

@Suite("Container: a Lazy resolves in the graph of the resolve that made it")
struct ContainerLazyGraphTests {
    let container = Container()

    /// Resolves an employer with the customer in `scope`, and breaks its cycle after `body`.
    func withEmployer(_ scope: Scope<Customer> = .graph, _ body: (Employer) throws -> Void) throws {
        EmploymentAssembly(scope: scope).assemble(into: container)
        let employer = try container.resolve(Employer.self)
        defer { employer.employee.employer = nil }
        try body(employer)
    }

    @Test("testContainerAlwaysProducesTheSameInstanceForRelatedObjectsInGraphScope")
    func sameInstanceInGraphScope() throws {
        try withEmployer { employer throws in
            #expect(try employer.lazyCustomer.value === employer.customer)
            #expect(try employer.employee.lazyCustomer.value === employer.customer)
            #expect(employer.employee.customer === employer.customer)
        }
    }

    @Test("testContainerAlwaysProducesDifferentInstanceForRelatedObjectsInTransientScope")
    func differentInstancesInTransientScope() throws {
        try withEmployer(.transient) { employer throws in
            #expect(try employer.lazyCustomer.value !== employer.customer)
            #expect(try employer.lazyCustomer.value !== employer.employee.lazyCustomer.value)
        }
    }

    @Test("testContainerResolvesDependenciesToSameInstance: through the cycle too")
    func sameInstanceThroughTheCycle() throws {
        try withEmployer { employer throws in
            #expect(employer.employee.employer === employer)
            #expect(try employer.lazyEmployee.value === employer.employee)
            #expect(try employer.lazyEmployee.value.employer === employer)
        }
    }

    @Test("testContainerResolvesCircularDependenciesForLazyInstance")
    func lazyOfACycle() throws {
        EmploymentAssembly(scope: .graph).assemble(into: container)
        let employee = try container.resolve(Lazy<Employee>.self).value
        defer { employee.employer = nil }
        #expect(employee.employer?.employee === employee)
    }

    @Test("testContainerResolvesProvidedDependenciesToDifferentInstances: a Provider resolves a new graph")
    func providerResolvesANewGraph() throws {
        try withEmployer { employer throws in
            let provided = try employer.providedEmployee()
            defer { provided.employer?.employee.employer = nil }
            #expect(provided !== employer.employee)
            #expect(provided.employer !== employer)
            #expect(try employer.employee.providedCustomer() !== employer.customer)
        }
    }

    @Test("Lazies made in one resolve and first read in another's graph: each in its own")
    func twoResolvesTwoGraphs() throws {
        try withEmployer { first throws in
            let second = try container.resolve(Employer.self)
            defer { second.employee.employer = nil }
            #expect(try second.lazyCustomer.value === second.customer)
            #expect(try first.lazyCustomer.value === first.customer)
            #expect(first.customer !== second.customer)
        }
    }

    @Test("A Lazy keeps nothing of its graph alive; once the instance is gone it makes a new one")
    func graphInstancesAreHeldWeakly() throws {
        final class Token: Sendable {}
        struct Seen { weak var token: Token? }
        final class Holder: Sendable {
            let token: Lazy<Token>
            init(token: Lazy<Token>) { self.token = token }
        }
        let seen = Mutex(Seen())
        container.register(Token.self) { _ in Token() }
        container.register(Holder.self) { r in
            let token = try r.resolve(Token.self)  // In the graph, then held by nothing.
            seen.withLock { $0.token = token }
            return Holder(token: try r.resolve(Lazy<Token>.self))
        }
        let holder = try container.resolve(Holder.self)
        #expect(seen.withLock { $0.token } == nil)
        let token = try holder.token.value
        #expect(try holder.token.value === token)
    }

    @Test("Read in an initCompleted of the same resolve, a Lazy gets the graph's instance")
    func readDuringTheResolve() throws {
        let seen = Mutex<Bool?>(nil)
        container.register(Customer.self) { _ in Customer() }
        container.register(Employee.self) { r in
            Employee(
                customer: try r.resolve(Customer.self), lazyCustomer: try r.resolve(Lazy<Customer>.self),
                providedCustomer: try r.resolve(Provider<Customer>.self))
        }
        .initCompleted { _, employee in
            let same = try employee.lazyCustomer.value === employee.customer
            seen.withLock { $0 = same }
        }
        _ = try container.resolve(Employee.self)
        #expect(seen.withLock { $0 } == true)
    }

    @Test("Read after the resolve failed, a Lazy resolves a graph of its own")
    func afterAFailedResolve() throws {
        let lazy = Mutex<Lazy<Customer>?>(nil)
        container.register(Customer.self) { _ in Customer() }
        container.register(Employee.self) { r in
            lazy.withLock { $0 = try? r.resolve(Lazy<Customer>.self) }
            _ = try r.resolve(Customer.self)
            throw Failure()
        }
        #expect(throws: ResolutionError.self) { try container.resolve(Employee.self) }
        let customer = try #require(lazy.withLock { $0 }).value
        #expect(try #require(lazy.withLock { $0 }).value === customer)
    }

    // Review findings (issue 27): each test failed before its fix.

    @Test("R1: a Lazy made during another Lazy's first read resolves in that read's graph")
    func lazyMadeDuringALazyRead() throws {
        final class G: Sendable {}
        final class B: Sendable {
            let g: G
            init(g: G) { self.g = g }
        }
        final class A: Sendable {
            let g: G
            let b: B
            init(g: G, b: B) { (self.g, self.b) = (g, b) }
        }
        container.register(G.self) { _ in G() }
        container.register(B.self) { r in B(g: try r.resolve(G.self)) }
        container.register(A.self) { r in
            let g = try r.resolve(G.self)
            return A(g: g, b: try r.resolve(Lazy<B>.self).value)
        }
        let direct = try container.resolve(A.self)
        #expect(direct.b.g === direct.g)
        let throughLazy = try container.resolve(Lazy<A>.self).value
        #expect(throughLazy.b.g === throughLazy.g)
    }

    @Test("R2: sibling Lazies read during the resolve share what the first one made")
    func siblingsReadDuringTheResolve() throws {
        final class D: Sendable {}
        final class B: Sendable {
            let d: D
            init(d: D) { self.d = d }
        }
        final class C: Sendable {
            let d: D
            init(d: D) { self.d = d }
        }
        container.register(D.self) { _ in D() }
        container.register(B.self) { r in B(d: try r.resolve(D.self)) }
        container.register(C.self) { r in C(d: try r.resolve(D.self)) }
        container.register(String.self) { r in
            let (b, c) = (try r.resolve(Lazy<B>.self), try r.resolve(Lazy<C>.self))
            return try b.value.d === c.value.d ? "shared" : "two"
        }
        #expect(try container.resolve(String.self) == "shared")
    }

    @Test("R3: read on another thread while its resolve runs, a Lazy makes its own, not a half-built one")
    func otherThreadDuringTheResolve() throws {
        final class G: Sendable {
            let completed = Mutex(false)
        }
        final class Top: Sendable {
            let g: G
            init(g: G) { self.g = g }
        }
        let seen = Mutex<(instance: G, completed: Bool, graphs: G)?>(nil)
        let lazy = Mutex<Lazy<G>?>(nil)
        container.register(G.self) { _ in G() }.initCompleted { _, g in g.completed.withLock { $0 = true } }
        for (name, fails) in [("succeeds", false), ("fails", true)] {
            container.register(Top.self, name: name) { r in
                let g = try r.resolve(G.self)
                let made = try r.resolve(Lazy<G>.self)
                lazy.withLock { $0 = made }
                _ = OwnThread {
                    guard let other = try? made.value else { return }
                    seen.withLock { $0 = (other, other.completed.withLock { $0 }, g) }
                }
                #expect(waitUntil { seen.withLock { $0 != nil } })
                if fails { throw Failure() }
                return Top(g: g)
            }
        }
        _ = try container.resolve(Top.self, name: "succeeds")
        let first = try #require(seen.withLock { $0 })
        #expect(first.instance !== first.graphs && first.completed)
        seen.withLock { $0 = nil }
        #expect(throws: ResolutionError.self) { try container.resolve(Top.self, name: "fails") }
        let second = try #require(seen.withLock { $0 })
        #expect(try lazy.withLock { $0! }.value !== second.graphs)
    }

    @Test("R4: a graph instance made with runtime arguments is not remembered, nor are its arguments")
    func argumentsAreNotHeld() throws {
        final class Argument: Hashable, Sendable {
            static func == (lhs: Argument, rhs: Argument) -> Bool { lhs === rhs }
            func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        }
        final class X: Sendable {}
        final class Top: Sendable {
            let lazy: Lazy<Service>
            init(lazy: Lazy<Service>) { self.lazy = lazy }
        }
        struct Seen { weak var argument: Argument? }
        let seen = Mutex(Seen())
        container.register(Service.self) { _ in Service() }
        container.register(X.self) { (_, _: Argument) in X() }
        container.register(Top.self) { r in
            let argument = Argument()
            seen.withLock { $0.argument = argument }
            _ = try r.resolve(X.self, arguments: argument)  // In the graph; nothing keeps X.
            return Top(lazy: try r.resolve(Lazy<Service>.self))
        }
        let top = try container.resolve(Top.self)
        #expect(seen.withLock { $0.argument } == nil)
        withExtendedLifetime(top) {}
    }

    @Test("R5: verify() follows a Lazy into what its service holds, and through Lazy<W?>")
    func verifyFollowsTheLazy() {
        final class W: Sendable {}
        final class G: Sendable {
            let w: W
            init(w: W) { self.w = w }
        }
        final class Holder<Held>: @unchecked Sendable {
            let held: Held
            init(_ held: Held) { self.held = held }
        }
        func problems(_ register: (Container) -> Void) -> [LifetimeProblem.Rule] {
            let container = Container()
            container.register(W.self) { _ in W() }.inScope(.weak)
            container.register(G.self) { r in G(w: try r.resolve(W.self)) }
            register(container)
            do {
                try container.verify()
                return []
            } catch {
                return error.lifetimeProblems.map(\.rule)
            }
        }
        #expect(
            problems {
                $0.register(Holder<Lazy<G>>.self) { r in Holder(try r.resolve(Lazy<G>.self)) }.inScope(.container)
            } == [.singletonKeepsWeak])
        #expect(
            problems {
                $0.register(Holder<Lazy<W?>>.self) { r in Holder(try r.resolve(Lazy<W?>.self)) }.inScope(.container)
            } == [.singletonKeepsWeak])
        #expect(
            problems {
                $0.register(Holder<Provider<G>>.self) { r in Holder(try r.resolve(Provider<G>.self)) }
                    .inScope(.container)
            } == [])
    }
}
