import SeedListing
import TestFixtures
import Testing

extension TraitTests {
    @Suite("The seed article's listing")
    struct SeedListingTests {
        @Test("The seed's user-side code, compiled unchanged in Swift 5 mode, prints the seed's outputs")
        func seedScriptPrintsTheSeedsOutputs() {
            var lines: [String] = []
            runSeedScript { lines.append(String(describing: $0)) }
            #expect(
                lines == [
                    #"Pet(name: "Rover", species: "Dog")"#,
                    #"Pet(name: "Coco", species: "Dog")"#,
                    #"Pet(name: "Coco", species: "Dog")"#,
                    #"Pet(name: "Bubba", species: "Dog")"#,
                    "'Tis but a scratch!",
                    "I think, therefore I am",
                    "Wubba Wubba Wubba",
                ]
            )
        }
    }
}
