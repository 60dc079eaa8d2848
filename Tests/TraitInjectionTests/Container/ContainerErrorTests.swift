import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

@Suite("Container: errors and cycle reports")
struct ContainerErrorTests {
    func resolutionError(_ body: () throws -> Void) -> ResolutionError? {
        do {
            try body()
            return nil
        } catch {
            return error as? ResolutionError
        }
    }

    @Test("A missing service names what was asked, what exists and the path that led there")
    func notRegistered() throws {
        let container = Container()
        let line = #line + 1
        container.register((any Animal).self, name: "cat") { _ in Cat(name: "Mimi") }
        container.register((any Person).self) { r in PetOwner(name: "Stephen", pet: try r.resolve((any Animal).self)) }
        let error = try #require(resolutionError { _ = try container.resolve((any Person).self) })
        #expect(error.kind == .notRegistered)
        #expect(error.service == "Animal")
        #expect(error.availableRegistrations == ["Animal (name: \"cat\") at ContainerErrorTests.swift:\(line)"])
        #expect(error.path.map(\.service) == ["Person"])
        #expect(error.description.contains("Animal is not registered, needed by Person (ContainerErrorTests.swift:"))
        #expect(error.description.contains("Registered for this type: Animal (name: \"cat\")"))
    }

    @Test("Asking with the wrong argument types says which argument types exist")
    func wrongArguments() throws {
        let container = Container()
        container.register(String.self) { (_, number: Int) in "\(number)" }
        let error = try #require(resolutionError { _ = try container.resolve(String.self, arguments: "x") })
        #expect(error.service == "String (arguments: String)")
        #expect(error.availableRegistrations.first?.hasPrefix("String (arguments: Int) at ") == true)
    }

    @Test("A service that needs itself: a cycle of length 1")
    func cycleOfOne() throws {
        let container = Container()
        let line = #line + 1
        container.register(Service.self) { r in try r.resolve(Service.self) }
        let error = try #require(resolutionError { _ = try container.resolve(Service.self) })
        #expect(error.kind == .cycle)
        #expect(
            error.description.hasPrefix("Circular dependency: Service (ContainerErrorTests.swift:\(line)) → Service."))
    }

    @Test("A cycle of length 3 is reported with the whole path")
    func cycleOfThree() throws {
        let container = Container()
        let first = #line + 1
        container.register(String.self, name: "a") { r in try r.resolve(String.self, name: "b") }
        container.register(String.self, name: "b") { r in try r.resolve(String.self, name: "c") }
        container.register(String.self, name: "c") { r in try r.resolve(String.self, name: "a") }
        let error = try #require(resolutionError { _ = try container.resolve(String.self, name: "a") })
        #expect(error.kind == .cycle)
        #expect(
            error.path.map(\.description) == [
                "String (name: \"a\") (ContainerErrorTests.swift:\(first))",
                "String (name: \"b\") (ContainerErrorTests.swift:\(first + 1))",
                "String (name: \"c\") (ContainerErrorTests.swift:\(first + 2))",
            ]
        )
        #expect(error.description.contains("(ContainerErrorTests.swift:\(first + 2)) → String (name: \"a\")."))
    }

    @Test("A cycle deep in a graph reports only the cycle")
    func cycleBelowTheRoot() throws {
        let container = Container()
        container.register(Int.self) { r in (try r.resolve(String.self, name: "a")).count }
        container.register(String.self, name: "a") { r in try r.resolve(String.self, name: "b") }
        container.register(String.self, name: "b") { r in try r.resolve(String.self, name: "a") }
        let error = try #require(resolutionError { _ = try container.resolve(Int.self) })
        #expect(error.path.map(\.service) == ["String (name: \"a\")", "String (name: \"b\")"])
    }

    @Test("A long chain resolves, and a cycle at its end is reported with the whole path back")
    func longChain() throws {
        let container = Container()
        // "0" needs "1", …, "49" needs "50": fifty services, each being created while the next is.
        for index in 0..<50 {
            container.register(String.self, name: "\(index)") { r in
                "\(index) " + (try r.resolve(String.self, name: "\(index + 1)"))
            }
        }
        container.register(String.self, name: "50") { _ in "end" }
        let chain = try container.resolve(String.self, name: "0")
        #expect(chain.hasPrefix("0 1 2 ") && chain.hasSuffix(" 48 49 end"))
        // Now "50" leads back to "10": a cycle of the forty-one services from "10" to "50".
        container.register(String.self, name: "50") { r in try r.resolve(String.self, name: "10") }
        let error = try #require(resolutionError { _ = try container.resolve(String.self, name: "0") })
        #expect(error.kind == .cycle)
        #expect(error.path.map(\.service) == (10...50).map { "String (name: \"\($0)\")" })
    }

    @Test("A factory's error is wrapped with the path")
    func factoryThrows() throws {
        let container = Container()
        container.register(Service.self) { _ in throw Failure() }
        container.register(String.self) { r in "\(try r.resolve(Service.self).number)" }
        let error = try #require(resolutionError { _ = try container.resolve(String.self) })
        #expect(error.kind == .factoryFailed)
        #expect(error.underlyingError == "the database is down")
        #expect(error.path.map(\.service) == ["String", "Service"])
        #expect(error.description.hasPrefix("The factory of String ("))
        #expect(error.description.hasSuffix("threw: the database is down."))
    }

    @Test("A singleton whose factory threw is created on the next resolve")
    func singletonRetriesAfterFailure() throws {
        let container = Container()
        let attempts = Counter()
        container.register(Service.self) { _ in
            if attempts.increment() == 1 { throw Failure() }
            return Service()
        }
        .inScope(.container)
        #expect(throws: ResolutionError.self) { try container.resolve(Service.self) }
        #expect(try container.resolve(Service.self) === container.resolve(Service.self))
        #expect(attempts.count == 2)
    }

    @Test("verify() reports every problem at once and skips registrations that take arguments")
    func verify() throws {
        let container = Container()
        container.register(Service.self) { _ in Service() }
        container.register(String.self) { r in try r.resolve(String.self) }
        container.register(Int.self) { r in try r.resolve(Double.self).hashValue }
        container.register(Bool.self) { _ in throw Failure() }
        container.register(Float.self) { (_, value: Float) in value }
        do {
            try container.verify()
            Issue.record("verify() passed a broken graph")
        } catch {
            #expect(
                error.problems.map(\.kind).sorted { "\($0)" < "\($1)" } == [.cycle, .factoryFailed, .notRegistered])
            #expect(error.skipped.count == 1)
            #expect(error.description.hasPrefix("3 registration(s) cannot be resolved:"))
        }
        let healthy = Container()
        healthy.register(Service.self) { _ in Service() }.inScope(.container)
        let report = try healthy.verify()
        #expect(report.description == "Every registration checked resolves, with no lifetime problem.")
    }
}
