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
    func sameFileAtTwoAddresses() {
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
    }

    @Test("A context's factory keeps the declaration's key; an async default keeps its factory")
    func siteFlags() {
        let site = DeclarationSite(file: "App/Services.swift", line: 12, column: 5, property: "database")
        #expect(site.line == 12)
        #expect(site.property.description == "database")
        #expect(site.chosen(by: 3).key == site.key)
        #expect(site.chosen(by: 3).contextRank == 3)
        #expect(site.async.key == site.key)
        #expect(site.async.isAsync && !site.isAsync)
        #expect(!site.async.chosen(by: 2).isAsync)
    }
}
