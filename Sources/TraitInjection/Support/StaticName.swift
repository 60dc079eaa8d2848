/// A `StaticString` — `#fileID`, `#function` — in one word: its address in the low 48 bits, its
/// length in the high 16. A declared service's property is made again on every use, and a value
/// of more than seven words is copied and destroyed through generic value witnesses (about 150
/// instructions a use, measured): a `String` takes two words, a `StaticString` three.
///
/// Two names are equal when their text is, wherever it lives: the same literal compiled into two
/// modules (an `@inlinable` declaration inlined elsewhere) has two addresses. The address is
/// compared first, so the literal of one place costs no more than a word compare.
@usableFromInline
struct StaticName: Hashable, Sendable, CustomStringConvertible {
    /// `0` for none; else the address and length, or a single scalar tagged with
    /// ``scalarTag`` as its length (a `StaticString` made from one Unicode scalar has no address).
    @usableFromInline let bits: UInt64

    /// No name: a registration's key, which has none.
    @usableFromInline static let none = StaticName(bits: 0)

    @usableFromInline static let scalarTag: UInt64 = 0xFFFF

    @inlinable
    init(bits: UInt64) {
        self.bits = bits
    }

    /// `text`'s address and length. Invariant: an address fits in 48 bits, as every 64-bit
    /// platform Swift runs on keeps user space below 2⁴⁸, and on a 32-bit one an address is 32
    /// bits; a literal is shorter than 65,535 bytes.
    @inlinable
    init(_ text: StaticString) {
        guard text.hasPointerRepresentation else {
            bits = UInt64(text.unicodeScalar.value) | Self.scalarTag << 48
            return
        }
        let address = UInt64(UInt(bitPattern: text.utf8Start))
        let count = UInt64(text.utf8CodeUnitCount)
        precondition(
            address >> 48 == 0 && count < Self.scalarTag,
            "TraitInjection: a declaration's #fileID or #function does not fit in a StaticName")
        bits = address | count << 48
    }

    /// The text.
    @usableFromInline
    var description: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    private func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let count = Int(bits >> 48)
        if UInt64(count) == Self.scalarTag {
            let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: bits)) ?? "?"
            var text = String(scalar)
            return text.withUTF8(body)
        }
        let start = UnsafePointer<UInt8>(bitPattern: UInt(truncatingIfNeeded: bits & 0xFFFF_FFFF_FFFF))
        return body(UnsafeBufferPointer(start: start, count: count))
    }

    @inlinable
    static func == (lhs: StaticName, rhs: StaticName) -> Bool {
        lhs.bits == rhs.bits || sameText(lhs, rhs)
    }

    /// Whether two names at different addresses have the same text.
    @usableFromInline
    static func sameText(_ lhs: StaticName, _ rhs: StaticName) -> Bool {
        guard lhs.bits != 0, rhs.bits != 0, lhs.bits >> 48 == rhs.bits >> 48 else { return false }
        return lhs.withUTF8 { left in rhs.withUTF8 { right in left.elementsEqual(right) } }
    }

    /// Hashes the text, which `==` compares.
    @usableFromInline
    func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
