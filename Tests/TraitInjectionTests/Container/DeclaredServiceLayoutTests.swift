import Testing

@testable import TraitInjection

@Suite("Container: a declared service's value")
struct DeclaredServiceLayoutTests {
    @Test("A declared service's value is seven words at most: larger, every use copies it through value witnesses")
    func sevenWords() {
        #expect(MemoryLayout<RegisteredWith<Int>>.size <= 7 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<RegisteredWith<String, Int>>.size <= 7 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<DeclarationRefinements>.size == MemoryLayout<Int>.size)
    }

    @Test("A declaration's file compiled at two addresses is one key: names compare by text")
    func sameFileAtTwoAddresses() throws {
        let literal: StaticString = "App/Services.swift"
        let original = StaticName(literal)
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: literal.utf8CodeUnitCount)
        defer { copy.deallocate() }
        copy.initialize(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        let elsewhere = StaticName(bits: UInt64(UInt(bitPattern: copy)) | UInt64(literal.utf8CodeUnitCount) << 48)
        #expect(elsewhere.bits != original.bits)
        #expect(elsewhere == original)
        #expect(elsewhere.hashValue == original.hashValue)
        #expect(elsewhere.description == "App/Services.swift")
        let site: UInt64 = 12 << 20 | 5 | 1 << 63
        let key = ServiceKey(declared: Int.self, arguments: Void.self, file: original, site: site)
        #expect(key == ServiceKey(declared: Int.self, arguments: Void.self, file: elsewhere, site: site))
        #expect(
            key != ServiceKey(declared: Int.self, arguments: Void.self, file: StaticName("App/Other.swift"), site: site)
        )
        #expect(key != ServiceKey(declared: String.self, arguments: Void.self, file: original, site: site))

        // The registry's index matches a declared key by its words, and by text where they differ.
        let container = Container()
        container.register(Int.self) { _ in 1 }
        container.register(Int.self, name: "a") { _ in 2 }
        let entry = try #require(container.registry.entry(for: ServiceKey(Int.self, name: nil, arguments: Void.self)))
        let named = try #require(container.registry.entry(for: ServiceKey(Int.self, name: "a", arguments: Void.self)))
        let index = Registry.Index(
            [key: entry, ServiceKey(Int.self, name: "a", arguments: Void.self): named], holdsOptionals: false)
        #expect(index.entry(for: key)?.object === entry)
        #expect(
            index.entry(for: ServiceKey(declared: Int.self, arguments: Void.self, file: elsewhere, site: site))?.object
                === entry)
        #expect(
            index.entry(
                for: ServiceKey(
                    declared: Int.self, arguments: Void.self, file: StaticName("App/Other.swift"), site: site))
                == nil)
        #expect(index.entry(for: ServiceKey(Int.self, name: "a", arguments: Void.self))?.object === named)
        #expect(index.entry(for: ServiceKey(Int.self, name: "b", arguments: Void.self)) == nil)
        #expect(index.entry(for: ServiceKey(Int.self, name: nil, arguments: Void.self)) == nil)
    }

    @Test("The library's scopes are one value however they are written")
    func scopeChoices() {
        #expect(Scope<Int>(SharedScope.container) == .container)
        #expect(Scope<Int>(SharedScope.weak) == .weak)
        #expect(Scope<Int>(SharedScope("container")) != .container)
        #expect(Scope<Int>.container.description == "container")
        #expect(Scope<Int>.weak.kind == .shared(.weak))
        #expect(DeclarationRefinements(Scope<Int>.container.choice).scope == .shared(.container))
        #expect(DeclarationRefinements(Scope<Int>.graph.choice).scope == .graph)
    }

    @Test("A context's factory keeps the declaration's key; an async default keeps its factory")
    func siteFlags() {
        let site = DeclarationSite(
            file: "App/Services.swift", line: 12, column: 5, property: "database", on: Container.self)
        #expect(site.line == 12)
        #expect(site.property.description == "database")
        #expect(site.chosen(by: 3).key == site.key)
        #expect(site.chosen(by: 3).contextRank == 3)
        #expect(site.async.key == site.key)
        #expect(site.async.isAsync && !site.isAsync)
        #expect(!site.async.chosen(by: 2).isAsync)
    }
}
