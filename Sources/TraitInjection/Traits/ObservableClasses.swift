import Observation
import Synchronization

/// Which classes are `Observable`, remembered per class so that an object's first trait read
/// does not look the conformance up again.
///
/// The runtime's conformance lookup (`type(of: object) is any Observable.Type`) costs about 310
/// instructions, which every object paid on its first trait read (1.22× the read before
/// Observation took part); a remembered answer costs a few.
///
/// A small direct-mapped table of words, one per cell: a class's metadata address, which is
/// never freed and aligned to at least 8 bytes, with its lowest bit set when the class is
/// `Observable`. A word is written whole and read whole (relaxed atomics: it publishes no other
/// memory), so a reader sees either a class's complete answer or another class's, which it
/// tells apart by the address; two classes that share a cell take turns, and a miss only looks
/// the conformance up again.
enum ObservableClasses {
    /// One word of the table.
    final class Cell: Sendable {
        let word = Atomic<UInt>(0)
    }

    /// The table: 64 cells, made once.
    static let cells = (0..<64).map { _ in Cell() }

    /// Whether `type`, a class, is `Observable`.
    static func contains(_ type: Any.Type) -> Bool {
        let address = UInt(bitPattern: ObjectIdentifier(type))
        // Fibonacci hashing: the top 6 bits of the address times 2^64 / φ (on a 32-bit target,
        // its low half, an odd multiplier all the same).
        let golden = UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        let cell = cells[Int(truncatingIfNeeded: (address &* golden) >> (UInt.bitWidth - 6))]
        let word = cell.word.load(ordering: .relaxed)
        if word & ~1 == address { return word & 1 == 1 }
        let observable = type is any Observable.Type
        cell.word.store(address | (observable ? 1 : 0), ordering: .relaxed)
        return observable
    }
}
