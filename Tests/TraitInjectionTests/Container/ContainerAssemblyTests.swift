import TestFixtures
import Testing
import TraitInjection
import TraitInjectionDiagnostics

@Suite("Container: assemblies")
struct ContainerAssemblyTests {
    struct Client: Sendable {
        let server: String
    }

    struct NetworkAssembly: Assembly {
        func assemble(into container: Container) {
            container.register(Client.self) { r in Client(server: try r.resolve(String.self, name: "server")) }
        }
    }

    struct ConfigurationAssembly: Assembly {
        let server: String

        func assemble(into container: Container) {
            container.register(String.self, name: "server") { _ in server }
        }
    }

    /// Registers a service whose dependency nobody registers.
    struct BrokenAssembly: Assembly {
        func assemble(into container: Container) {
            container.register(Service.self) { r in
                _ = try r.resolve(Int.self, name: "missing")
                return Service()
            }
        }
    }

    @Test("Assemblies in either order: one assembly's services depend on another's")
    func anyOrder() throws {
        let first = Container(assemblies: [NetworkAssembly(), ConfigurationAssembly(server: "a")])
        let second = Container(assemblies: [ConfigurationAssembly(server: "a"), NetworkAssembly()])
        #expect(try first.resolve(Client.self).server == "a")
        #expect(try second.resolve(Client.self).server == "a")
    }

    @Test("A later assembly replaces an earlier one's registration, as a test's does")
    func laterOverrides() throws {
        let container = Container(assemblies: [ConfigurationAssembly(server: "production"), NetworkAssembly()])
        container.apply([ConfigurationAssembly(server: "stub")])
        #expect(try container.resolve(Client.self).server == "stub")
    }

    @Test("verify() names the assembly a broken registration came from")
    func verifyNamesTheAssembly() throws {
        let container = Container(assemblies: [NetworkAssembly(), ConfigurationAssembly(server: "a"), BrokenAssembly()])
        let report = #expect(throws: VerificationReport.self) { try container.verify() }
        let problem = try #require(report?.problems.first)
        #expect(report?.problems.count == 1)
        #expect(problem.path.first?.assembly == "BrokenAssembly")
        #expect(problem.description.contains("in BrokenAssembly"))
        #expect(report?.description.contains("(ContainerAssemblyTests.swift:") == true)
        #expect(
            container.localRegistrations.contains { $0.hasPrefix("Client at ") && $0.hasSuffix("in NetworkAssembly") })
    }

    @Test("A registration made outside any assembly names none")
    func outsideAnAssembly() {
        let container = Container(assemblies: [NetworkAssembly()])
        container.register(Service.self) { _ in Service() }
        #expect(container.localRegistrations.contains { $0.hasPrefix("Service at ") && !$0.contains(" in ") })
    }
}
