import Synchronization
import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

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

    @Test("Read in an initCompleted of the resolve that made it, a Lazy resolves in a graph of its own")
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
        #expect(seen.withLock { $0 } == false)  // The graph is not complete yet: not handed out.
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

    @Test("a Lazy made during a Lazy's first read sees what that read found of its own maker's graph")
    func lazyMadeDuringALazyRead() throws {
        final class G: Sendable {}
        final class B: Sendable {
            let g: G
            init(g: G) { self.g = g }
        }
        final class A: Sendable {
            let g: G
            let b: Lazy<B>
            init(g: G, b: Lazy<B>) { (self.g, self.b) = (g, b) }
        }
        final class Top: Sendable {
            let g: G
            let a: Lazy<A>
            init(g: G, a: Lazy<A>) { (self.g, self.a) = (g, a) }
        }
        container.register(G.self) { _ in G() }
        container.register(B.self) { r in B(g: try r.resolve(G.self)) }
        container.register(A.self) { r in A(g: try r.resolve(G.self), b: try r.resolve(Lazy<B>.self)) }
        container.register(Top.self) { r in Top(g: try r.resolve(G.self), a: try r.resolve(Lazy<A>.self)) }
        let top = try container.resolve(Top.self)
        let a = try top.a.value
        #expect(a.g === top.g)
        #expect(try a.b.value.g === top.g)
    }

    @Test("sibling Lazies share what their maker made, not what one of them made, read in any order")
    func siblingsShareTheMakersGraphOnly() throws {
        final class D: Sendable {}
        final class B: Sendable {
            let d: D
            init(d: D) { self.d = d }
        }
        final class C: Sendable {
            let d: D
            init(d: D) { self.d = d }
        }
        final class Top: Sendable {
            let d: D?
            let b: Lazy<B>
            let c: Lazy<C>
            init(d: D?, b: Lazy<B>, c: Lazy<C>) { (self.d, self.b, self.c) = (d, b, c) }
        }
        container.register(D.self) { _ in D() }
        container.register(B.self) { r in B(d: try r.resolve(D.self)) }
        container.register(C.self) { r in C(d: try r.resolve(D.self)) }
        container.register(Top.self) { r in
            Top(d: nil, b: try r.resolve(Lazy<B>.self), c: try r.resolve(Lazy<C>.self))
        }
        container.register(Top.self, name: "makes D") { r in
            Top(d: try r.resolve(D.self), b: try r.resolve(Lazy<B>.self), c: try r.resolve(Lazy<C>.self))
        }
        let own = try container.resolve(Top.self)
        #expect(try own.b.value.d !== own.c.value.d)
        let shared = try container.resolve(Top.self, name: "makes D")
        #expect(try shared.b.value.d === shared.d)
        #expect(try shared.c.value.d === shared.d)
    }

    @Test("read on another thread while its resolve runs, a Lazy makes its own, not a half-built one")
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

    @Test("a graph instance made with runtime arguments is not remembered, nor are its arguments")
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

    @Test("verify() follows a Lazy into what its service holds, and through Lazy<W?>")
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

    @Test("siblings read on two threads at once get their maker's instance, both")
    func siblingsOnTwoThreads() async throws {
        final class X: Sendable {}
        final class Top: Sendable {
            let x: X
            let first: Lazy<X>
            let second: Lazy<X>
            init(x: X, first: Lazy<X>, second: Lazy<X>) { (self.x, self.first, self.second) = (x, first, second) }
        }
        container.register(X.self) { _ in X() }
        container.register(Top.self) { r in
            Top(x: try r.resolve(X.self), first: try r.resolve(Lazy<X>.self), second: try r.resolve(Lazy<X>.self))
        }
        for _ in 0..<20 {
            let top = try container.resolve(Top.self)
            let read = Mutex<[X]>([])
            await onOwnThreads(2) { index in
                let x = try? (index == 0 ? top.first : top.second).value
                read.withLock { $0 += x.map { [$0] } ?? [] }
            }
            #expect(read.withLock { $0.allSatisfy { $0 === top.x } && $0.count == 2 })
        }
    }

    @Test("a Lazy first read inside another resolve that then fails keeps nothing of it")
    func firstReadInAFailingResolve() throws {
        final class S: Sendable {}
        final class X: Sendable {
            let s: S
            init(s: S) { self.s = s }
        }
        final class Holder: Sendable {
            let x: Lazy<X>
            init(x: Lazy<X>) { self.x = x }
        }
        let alive = Mutex<[X]>([])
        container.register(S.self) { _ in S() }.inScope(.container)
        container.register(X.self) { r in
            let x = X(s: try r.resolve(S.self))
            alive.withLock { $0.append(x) }
            return x
        }
        container.register(Holder.self) { r in Holder(x: try r.resolve(Lazy<X>.self)) }.inScope(.container)
        container.register(String.self) { r in
            _ = try r.resolve(Holder.self).x.value
            throw Failure()
        }
        let holder = try container.resolve(Holder.self)
        #expect(throws: ResolutionError.self) { try container.resolve(String.self) }
        let x = try holder.x.value
        #expect(!alive.withLock { $0.dropLast().contains { $0 === x } })
        #expect(try x.s === container.resolve(S.self))
    }

    @Test("a chain of Lazy reads keeps no chain of graphs, and runs on a small stack")
    func longChainOfReads() async throws {
        final class Formatter: Sendable {}
        final class Page: Sendable {
            let formatter: Formatter
            let next: Lazy<Page>
            init(formatter: Formatter, next: Lazy<Page>) { (self.formatter, self.next) = (formatter, next) }
        }
        container.register(Formatter.self) { _ in Formatter() }
        container.register(Page.self) { r in
            Page(formatter: try r.resolve(Formatter.self), next: try r.resolve(Lazy<Page>.self))
        }
        .inScope(.transient)
        let container = container
        let sameFormatter = Mutex(true)
        await onOwnThreads(1, stackSize: 256 << 10) { _ in
            guard var page = try? container.resolve(Page.self) else { return sameFormatter.withLock { $0 = false } }
            let formatter = page.formatter
            for _ in 0..<3_000 {
                guard let next = try? page.next.value else { return sameFormatter.withLock { $0 = false } }
                page = next
                if page.formatter !== formatter { sameFormatter.withLock { $0 = false } }
            }
        }
        #expect(sameFormatter.withLock { $0 })
    }

    @Test("verify() follows each Lazy once per holder: a mesh of transients with Lazies of each other")
    func verifyAMeshOfLazies() throws {
        final class Node: Sendable {
            let next: [Lazy<Node>]
            init(_ next: [Lazy<Node>]) { self.next = next }
        }
        final class Holder: Sendable {
            let start: Lazy<Node>
            init(_ start: Lazy<Node>) { self.start = start }
        }
        let count = 12
        for index in 0..<count {
            container.register(Node.self, name: "\(index)") { r in
                Node(try (0..<count).filter { $0 != index }.map { try r.resolve(Lazy<Node>.self, name: "\($0)") })
            }
            .inScope(.transient)
            .initCompleted { _, _ in }
        }
        container.register(Holder.self) { r in Holder(try r.resolve(Lazy<Node>.self, name: "0")) }.inScope(.container)
        #expect(throws: Never.self) { try container.verify() }
        #expect(container.dependencyGraph().problems.isEmpty)
    }
}
