/// A container's registrations: an open-addressing hash table keyed by ``ServiceKey``.
///
/// A `Dictionary` hashes its keys with SipHash, which was a third of the cost of resolving a
/// kept singleton. Keys here are two type identities and an optional name, so a multiplicative
/// hash of the identities spreads unnamed keys well; a name is hashed whole (with the standard
/// hasher), so that many names of one type, even of equal length, spread too. Equality still
/// compares the whole key.
@usableFromInline
struct RegistrationTable: Sendable {
    private(set) var keys: [ServiceKey?] = Array(repeating: nil, count: 16)
    private(set) var values: [(any AnyRegistration)?] = Array(repeating: nil, count: 16)
    private(set) var count = 0

    init() {}

    @inlinable @inline(__always)
    static func slot(for key: ServiceKey, mask: Int) -> Int {
        var hash = UInt(bitPattern: key.service) &* 0x9E37_79B9_7F4A_7C15
        hash ^= UInt(bitPattern: key.arguments) &* 0xC2B2_AE3D_27D4_EB4F
        if let name = key.name {
            hash ^= UInt(bitPattern: name.hashValue) &* 0x1656_67B1_9E37_79F9
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    }

    /// The registration filed under `key`.
    func registration(for key: ServiceKey) -> (any AnyRegistration)? {
        let mask = keys.count - 1
        var index = Self.slot(for: key, mask: mask)
        while let candidate = keys[index] {
            if candidate == key { return values[index] }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Files `registration` under `key`, returning the one it replaces.
    mutating func insert(_ registration: any AnyRegistration, for key: ServiceKey) -> (any AnyRegistration)? {
        if (count + 1) * 4 > keys.count * 3 { grow() }
        let mask = keys.count - 1
        var index = Self.slot(for: key, mask: mask)
        while let candidate = keys[index] {
            if candidate == key {
                defer { values[index] = registration }
                return values[index]
            }
            index = (index + 1) & mask
        }
        keys[index] = key
        values[index] = registration
        count += 1
        return nil
    }

    /// Every key and registration, in no particular order.
    var entries: [(key: ServiceKey, registration: any AnyRegistration)] {
        zip(keys, values).compactMap { key, value in
            guard let key, let value else { return nil }
            return (key, value)
        }
    }

    private mutating func grow() {
        let old = entries
        keys = Array(repeating: nil, count: keys.count * 2)
        values = Array(repeating: nil, count: values.count * 2)
        count = 0
        for (key, registration) in old {
            _ = insert(registration, for: key)
        }
    }
}
