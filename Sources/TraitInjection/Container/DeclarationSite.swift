/// Where a service is declared — its file, property, line and column — and which context chose
/// its default (``RegisteredWith/onTest(_:)-((Resolution,Argument)->Service)``): three words, made on every use of the property
/// (``Declaration``).
@usableFromInline
struct DeclarationSite: Sendable {
    /// `#fileID`.
    @usableFromInline let file: StaticName
    /// `#function`: the property, `database`.
    @usableFromInline let property: StaticName
    /// The line in bits 20–55, the column in bits 0–19, bit 63 set: the ``key``. Bits 56–58 hold
    /// the rank of the context whose factory is the default (`0` for none), bit 59 whether that
    /// factory is async, bit 60 whether it is isolated to the main actor. Bit 61, part of the key,
    /// says the service is declared on an app's ``ServiceContainer``, not on ``Container``.
    @usableFromInline let place: UInt64

    /// The site of a service declared on `owner`: ``Container``, or an app's
    /// ``ServiceContainer``.
    @inlinable
    init<Owner>(file: StaticString, line: UInt, column: UInt, property: StaticString, on owner: Owner.Type) {
        self.file = StaticName(file)
        self.property = StaticName(property)
        place =
            (UInt64(truncatingIfNeeded: line) & 0xF_FFFF_FFFF) << 20 | UInt64(truncatingIfNeeded: column) & 0xF_FFFF
            | 1 << 63 | (owner == Container.self ? 0 : Self.appTypeFlag)
    }

    @inlinable
    init(file: StaticName, property: StaticName, place: UInt64) {
        self.file = file
        self.property = property
        self.place = place
    }

    @usableFromInline static let flags: UInt64 = 0x1F << 56
    @usableFromInline static let asyncFlag: UInt64 = 1 << 59
    @usableFromInline static let mainActorFlag: UInt64 = 1 << 60
    @usableFromInline static let appTypeFlag: UInt64 = 1 << 61

    /// The ``ServiceKey/site`` of the service: the same whichever context chose its default.
    @inlinable
    var key: UInt64 { place & ~Self.flags }

    var line: UInt {
        UInt(truncatingIfNeeded: (place >> 20) & 0xF_FFFF_FFFF)
    }

    @inlinable
    var contextRank: UInt8 {
        UInt8(truncatingIfNeeded: place >> 56) & 0x7
    }

    @inlinable
    var isAsync: Bool { place & Self.asyncFlag != 0 }

    @inlinable
    var isMainActor: Bool { place & Self.mainActorFlag != 0 }

    /// Whether it is declared on an app's ``ServiceContainer``.
    var isOnAppType: Bool { place & Self.appTypeFlag != 0 }

    /// This site, with an async default.
    @inlinable
    var async: DeclarationSite {
        DeclarationSite(file: file, property: property, place: place | Self.asyncFlag)
    }

    /// This site, with a main-actor default.
    @inlinable
    var onMainActor: DeclarationSite {
        DeclarationSite(file: file, property: property, place: place | Self.mainActorFlag)
    }

    /// This site, with the synchronous default of the context of `rank` (1–7); ``onMainActor``
    /// for a main-actor one.
    @inlinable
    func chosen(by rank: UInt8) -> DeclarationSite {
        DeclarationSite(file: file, property: property, place: place & ~Self.flags | UInt64(rank & 0x7) << 56)
    }
}
