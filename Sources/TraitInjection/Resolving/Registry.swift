import Synchronization

/// A container's registrations: one ``RegistryEntry`` per key, found without a lock.
///
/// **The one clever piece of the engine** (the cached-singleton and two-thread rows of
/// `Benchmarks/README.md` need it: a lookup under the registry's lock makes two threads that
/// resolve different singletons contend on that lock). Its invariants, relied on here only:
///
/// 1. *An entry is never removed.* Each key gets one entry, made by its first `register` and kept
///    until the registry goes; registering the key again changes the entry's state under the
///    entry's own lock (``RegistryEntry``), not the index. Unregistering it (``remove(_:)``, a
///    declared service's `reset()`) clears the entry's `isFiled` flag, which a lookup reads on a
///    hit: the key is then missing, and the indexes that hold the entry stay complete. The entry
///    holds a stand-in binding of the same types (a resolve that read the flag just before calls
///    it) and is filed again, with its new binding, if the key is registered again.
/// 2. *An index is immutable and lives as long as the registry.* An ``Index`` is a table of the
///    entries built under the lock and never changed; a newer one replaces it for lookups, and the
///    older one is kept in `Master.indexes` until the registry's `deinit`. A lookup therefore
///    borrows the published index without retaining it, as long as it holds the registry (it
///    does: its caller holds the container). The table is open addressing with a
///    multiplicative hash of the key's type identities: `Dictionary`'s SipHash was a third of a
///    cached singleton's resolve.
/// 3. *Garbage is bounded.* A new index is built only when a lookup misses keys registered since
///    the last one, and only while the entries of retired indexes number at most twice the live
///    ones plus 64; otherwise the lookup takes the lock and reads `Master.entries`, which is always
///    complete. So memory stays within three times the live index, however registrations and
///    lookups interleave.
/// 4. *A miss in a complete index is final.* `registered` counts the entries, stored under the
///    lock after each new one; an index that holds that many holds them all, so a key it lacks
///    (a parent's service looked up in a child, `T?`) is answered without the lock, and so is
///    whether an `Optional` is registered. A registration that the count does not show yet is
///    concurrent with the lookup, which may miss it.
///
/// Lock order: `master`, then an entry's lock (``register(_:for:)`` and ``remove(_:)`` only).
final class Registry: Sendable {
    /// An immutable map from keys to entries: open addressing, linear probing, at most half full.
    final class Index: Sendable {
        /// What a probe compares, in plain values (no name is copied until the types match).
        private struct Slot {
            /// `nil`: an empty slot.
            let service: ObjectIdentifier?
            let arguments: ObjectIdentifier
            let hash: Int
            /// The key's ``ServiceKey/site`` and ``ServiceKey/file``: a declared key is matched by
            /// these words, a type's (both `0`) as well.
            let site: UInt64
            let file: UInt64
            /// Whether its key has a name: then the whole key is compared.
            let isNamed: Bool

            init(_ key: ServiceKey?, hash: Int) {
                service = key?.service
                arguments = key?.arguments ?? ObjectIdentifier(Void.self)
                self.hash = hash
                site = key?.site ?? 0
                file = key?.file.bits ?? 0
                isNamed = key?.name != nil
            }
        }

        private let slots: [Slot]
        private let keys: [ServiceKey?]
        /// Borrowed: `Master.entries` holds every entry for the registry's life (invariant 1).
        private let entries: [Borrowed<RegistryEntry>?]
        let count: Int
        let holdsOptionals: Bool

        init(_ all: [ServiceKey: RegistryEntry], holdsOptionals: Bool) {
            self.holdsOptionals = holdsOptionals
            var capacity = 16
            while capacity < all.count * 2 { capacity *= 2 }
            var slots = [Slot](repeating: Slot(nil, hash: 0), count: capacity)
            var keys = [ServiceKey?](repeating: nil, count: capacity)
            var entries = [Borrowed<RegistryEntry>?](repeating: nil, count: capacity)
            for (key, entry) in all {
                let hash = Self.hash(key)
                var slot = hash & (capacity - 1)
                while slots[slot].service != nil { slot = (slot + 1) & (capacity - 1) }
                slots[slot] = Slot(key, hash: hash)
                keys[slot] = key
                entries[slot] = Borrowed(entry)
            }
            self.slots = slots
            self.keys = keys
            self.entries = entries
            count = all.count
        }

        func entry(for key: ServiceKey) -> Borrowed<RegistryEntry>? {
            let mask = slots.count - 1
            let hash = Self.hash(key)
            let isNamed = key.name != nil
            var slot = hash & mask
            while let service = slots[slot].service {
                if service == key.service, slots[slot].arguments == key.arguments, slots[slot].hash == hash,
                    slots[slot].site == key.site,
                    !isNamed && !slots[slot].isNamed && slots[slot].file == key.file.bits
                        // A name, or the same file's name compiled at two addresses (rare): the
                        // whole key, by text.
                        || keys[slot] == key
                {
                    return entries[slot]
                }
                slot = (slot + 1) & mask
            }
            return nil
        }

        private static func hash(_ key: ServiceKey) -> Int {
            var hash = UInt(bitPattern: key.service) &* 0x9E37_79B9_7F4A_7C15
            hash ^= UInt(bitPattern: key.arguments) &* 0xC2B2_AE3D_27D4_EB4F
            // A declared service's file is not hashed: its line and column tell it apart.
            if key.isDeclared {
                hash ^= UInt(truncatingIfNeeded: key.site) &* 0x1656_67B1_9E37_79F9
            } else if let name = key.name {
                hash ^= Self.hash(name) &* 0x1656_67B1_9E37_79F9
            }
            return Int(truncatingIfNeeded: hash ^ (hash >> 29)) & Int.max
        }

        /// FNV-1a over the name's UTF-8 bytes: `hashValue` (SipHash, seeded against flooding) was
        /// most of a named lookup, and the names are the app's own.
        private static func hash(_ name: String) -> UInt {
            var name = name
            return name.withUTF8 { bytes in
                var hash: UInt = 0xCBF2_9CE4_8422_2325
                for byte in bytes { hash = (hash ^ UInt(byte)) &* 0x100_0000_01B3 }
                return hash
            }
        }
    }

    private struct Master {
        /// Every entry: the truth that an index is a copy of.
        var entries: [ServiceKey: RegistryEntry] = [:]
        /// Every index ever published, the current one last (invariant 2).
        var indexes: [Index] = []
        /// How many entries the retired indexes hold (invariant 3).
        var retiredEntries = 0
        /// Whether an `Optional` type has been registered (``Container/registersOptionals``).
        var holdsOptionals = false
    }

    private let master = Locked(Master())
    /// The current ``Index`` (retained by `master.indexes`), once there is one.
    private let published = Atomic<Unmanaged<Index>?>(nil)
    /// How many entries there are (invariant 4).
    private let registered = Atomic<Int>(0)

    init() {}

    /// The entry for `key`, if something is registered under it.
    func entry(for key: ServiceKey) -> RegistryEntry? {
        let index = published.load(ordering: .acquiring)
        if let found = index?._withUnsafeGuaranteedRef({ $0.entry(for: key) }), found.with(\.isFiled) {
            return found.object
        }
        return lockedEntry(for: key, missedIn: index)
    }

    /// The entry for `key` as the index holds it, borrowed (invariant 1): a resolve from the
    /// container, which holds the registry, reads it without retaining it. `nil` if the index
    /// lacks it: it is not registered, or only since the index was built (``entry(for:)``).
    func borrowedEntry(for key: ServiceKey) -> Borrowed<RegistryEntry>? {
        guard let found = published.load(ordering: .acquiring)?._withUnsafeGuaranteedRef({ $0.entry(for: key) }),
            found.with(\.isFiled)
        else { return nil }
        return found
    }

    /// The entry for `key` from `Master.entries`, which `index` (the one a lookup read, not a
    /// newer one, which may hold it) lacks: registered since it was built, or not at all.
    private func lockedEntry(for key: ServiceKey, missedIn index: Unmanaged<Index>?) -> RegistryEntry? {
        if index?._withUnsafeGuaranteedRef(isComplete) ?? isComplete(nil) { return nil }  // Invariant 4.
        return master.withLock { master in
            let found = master.entries[key].flatMap { $0.isFiled ? $0 : nil }
            let indexed = master.indexes.last?.count ?? 0
            // Registered since the index was built: index it again, if the garbage allows it (and
            // another lookup has not just done so).
            if found != nil, master.indexes.last?.entry(for: key) == nil,
                master.retiredEntries + indexed <= 2 * master.entries.count + 64
            {
                master.retiredEntries += indexed
                let index = Index(master.entries, holdsOptionals: master.holdsOptionals)
                master.indexes.append(index)
                published.store(Unmanaged.passUnretained(index), ordering: .releasing)
            }
            return found
        }
    }

    /// Whether an `Optional` type has been registered here.
    var holdsOptionals: Bool {
        let index = published.load(ordering: .acquiring)
        guard index?._withUnsafeGuaranteedRef(isComplete) ?? isComplete(nil) else {
            return master.withLock { $0.holdsOptionals }
        }
        return index?._withUnsafeGuaranteedRef { $0.holdsOptionals } ?? false
    }

    /// Whether `index`, published, holds every entry (invariant 4).
    private func isComplete(_ index: Index?) -> Bool {
        (index?.count ?? 0) == registered.load(ordering: .acquiring)
    }

    /// Files `binding` under `key`, and returns what the entry let go (the binding it replaced
    /// and its kept instance) for the caller to release with no lock held.
    func register(_ binding: Binding, for key: ServiceKey) -> Any? {
        let (existing, released) = master.withLock { master -> (RegistryEntry?, Any?) in
            master.holdsOptionals = master.holdsOptionals || binding.isOptional
            if let entry = master.entries[key] {
                guard !entry.isFiled else { return (entry, nil) }
                // Filed again (invariant 1): its new binding first, so that a lookup that sees
                // the flag reads it. Under the lock, so that no `remove` comes between.
                let released = entry.replace(with: binding)
                entry.file(true)
                return (nil, released)
            }
            // Made with its binding: a lookup finds no entry without one.
            master.entries[key] = RegistryEntry(binding)
            registered.store(master.entries.count, ordering: .releasing)
            return (nil, nil)
        }
        return existing?.replace(with: binding) ?? released
    }

    /// Unregisters `keys` (those registered), each with its kept instance (invariant 1); returns
    /// what they let go, for the caller to release with no lock held.
    ///
    /// The entry's binding gives way to a stand-in (``Binding/standIn()``): the entry lets go of
    /// the old one, and a resolve that read the entry just before, or waits for an instance of
    /// the old one, resolves as if the key had been unregistered first.
    func remove(_ keys: some Sequence<ServiceKey>) -> [Any?] {
        master.withLock { master in
            keys.compactMap { key -> Any?? in
                guard let entry = master.entries[key], entry.isFiled else { return nil }
                entry.file(false)
                return entry.replace(with: entry.read().binding.standIn())
            }
        }
    }

    /// Every key and entry registered, in no particular order.
    var entries: [(key: ServiceKey, entry: RegistryEntry)] {
        master.withLock { $0.entries.filter(\.value.isFiled).map { ($0.key, $0.value) } }
    }

    /// How many indexes have been built, for tests.
    var indexCount: Int {
        master.withLock { $0.indexes.count }
    }
}

/// One key's registration and the instance its scope keeps: changed under a lock of its own,
/// read without one.
///
/// **Invariant 5: the borrowing rule.** `published` names, without retaining it, the
/// ``Published`` snapshot that `state` holds: the binding and the strongly kept `Kept<Service>`
/// box. A reader (``read()``) counts itself in `readers`, loads the snapshot, retains what it
/// holds, and counts itself out. A writer changes `state` under the lock and publishes a new
/// snapshot there if what it holds changed; it holds on to the old snapshot (and so to what that
/// holds) until it has seen `readers` at zero afterwards (``change(_:)``). All four accesses are
/// sequentially consistent, so in their one order either the reader's count comes first — the
/// writer waits for it — or the reader loads the new snapshot. A reader runs no user code, so the
/// wait is short; the writer's lock is let go before it. A change that lets go of nothing (an
/// instance kept where there was none, as ``Waits`` publishes it under its monitor) does not
/// wait: if a reader is in flight, the old snapshot is kept in `retired` (its binding is the new
/// one's) until a later change sees no reader, or the entry goes.
///
/// Threads resolving different singletons touch only their entries, boxes and instances: each
/// entry and its lock, each published snapshot and each ``Kept`` box, fill cache lines of their
/// own (padded), so that counting or retaining one, or reading it, does not slow down a
/// neighbour written on another core (false sharing).
@usableFromInline
final class RegistryEntry: Sendable, KeptSlot {
    /// What a resolve reads of the entry: the binding, and the box of the instance kept strongly.
    /// (`@unchecked Sendable`: immutable; the box holds a shared scope's instance, which is
    /// `Sendable`, as only `Sendable` services can be registered in such a scope.)
    private final class Published: @unchecked Sendable {
        let binding: Binding
        let box: AnyObject?
        /// `box`, for a reader to lend out without retaining it (the snapshot holds it).
        let borrowedBox: Borrowed<AnyObject>?
        /// Read on every resolve of its entry: no object another thread writes to (a singleton
        /// made next) may share its cache line.
        private let padding = CacheLinePadding()

        init(_ binding: Binding, _ box: AnyObject?) {
            self.binding = binding
            self.box = box
            borrowedBox = box.map(Borrowed.init)
        }
    }

    private struct State {
        var binding: Binding
        var kept = KeptState.empty
        var published: Published
        /// Snapshots replaced while a reader was in flight that hold nothing the current one
        /// does not (invariant 5).
        var retired: [Published] = []
    }

    private let state: Locked<State>
    private let readers = Atomic<Int>(0)
    private let published: Atomic<Unmanaged<Published>>
    /// Whether the key is registered (``Registry``'s invariant 1): changed under the registry's
    /// lock, read on every lookup that finds the entry.
    private let filed = Atomic<Bool>(true)
    private let padding = CacheLinePadding()

    init(_ binding: Binding) {
        let published = Published(binding, nil)
        state = Locked(State(binding: binding, published: published), padded: true)
        self.published = Atomic(Unmanaged.passUnretained(published))
    }

    /// Whether the key is registered (``Registry``'s invariant 1).
    var isFiled: Bool { filed.load(ordering: .acquiring) }

    /// Files or unfiles the entry: under the registry's lock (``Registry/remove(_:)``).
    func file(_ isFiled: Bool) {
        filed.store(isFiled, ordering: .releasing)
    }

    /// The current binding, and the `Kept<Service>` box of the instance kept strongly, if any:
    /// read without a lock (invariant 5).
    func read() -> (binding: Binding, box: AnyObject?) {
        let (binding, box) = reading { (retained($0.binding), $0.box.map(retained)) }
        return (binding.takeRetainedValue(), box?.takeRetainedValue())
    }

    /// The binding, unless an instance is kept strongly: then `nil`, and `kept` has taken the
    /// instance out of its `Kept<Service>` box, which it borrows — the snapshot holds the box
    /// while the read is counted (invariant 5), and `kept` runs no user code.
    ///
    /// Out of line, so that `kept` (which retains the instance: a copy, not ``retained(_:)``) stays
    /// an opaque call that ends before the count goes down, however the call site is optimised.
    @inline(never)
    func bindingUnlessKept(else kept: (Borrowed<AnyObject>) -> Void) -> Binding? {
        reading { published -> Unmanaged<Binding>? in
            guard let box = published.borrowedBox else { return retained(published.binding) }
            kept(box)
            return nil
        }?.takeRetainedValue()
    }

    /// What `body` takes from the published snapshot, counted in `readers` (invariant 5): it
    /// retains what it keeps with `retained(_:)`, an explicit retain that the optimiser does not move
    /// past the count going down.
    private func reading<Result>(_ body: (Published) -> Result) -> Result {
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { readers.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        return published.load(ordering: .sequentiallyConsistent)._withUnsafeGuaranteedRef(body)
    }

    /// Runs `body` counted as a reader of the entry, as a resolve reading it is: for tests of
    /// what a writer does meanwhile (invariant 5).
    func whileReading<Result>(_ body: () -> Result) -> Result {
        reading { _ in body() }
    }

    /// Replaces the binding. The replaced one's kept instance is let go; an instance being made
    /// for it is not kept when it is published, and the resolves still using it carry on.
    /// Returns what it let go, for the caller to release with no lock held.
    func replace(with binding: Binding) -> Any? {
        change { state in
            defer { (state.binding, state.kept) = (binding, .empty) }
            return (state.binding, state.kept)
        }
    }

    func withKept<Result>(_ body: (inout KeptState, Binding?) -> Result) -> Result {
        change { state in body(&state.kept, state.binding) }
    }

    /// Whether a reader is in flight (invariant 5).
    private var isRead: Bool { readers.load(ordering: .sequentiallyConsistent) != 0 }

    /// Runs `body` on the state under the lock and publishes what it leaves; then, if that
    /// changed, waits until no reader can hold the old snapshot before letting go of it — unless
    /// the old one holds nothing the new one does not (invariant 5).
    private func change<Result>(_ body: (inout State) -> Result) -> Result {
        let (result, replaced, waits) = state.withLock { state -> (Result, [Published], Bool) in
            let result = body(&state)
            let box: AnyObject? = if case .strong(let box) = state.kept { box } else { nil }
            guard state.published.binding !== state.binding || state.published.box !== box else {
                return (result, [], false)
            }
            let old = state.published
            state.published = Published(state.binding, box)
            published.store(Unmanaged.passUnretained(state.published), ordering: .sequentiallyConsistent)
            let holdsMore = old.binding !== state.binding || old.box != nil
            if !holdsMore, isRead {
                state.retired.append(old)  // Nothing to let go: no wait (the caller may hold a lock).
                return (result, [], false)
            }
            defer { state.retired = [] }
            return (result, [old] + state.retired, holdsMore)
        }
        if waits {
            while isRead { Platform.yieldThread() }
        }
        withExtendedLifetime(replaced) {}
        return result
    }
}

/// `object`, retained once more, for a reader of a published snapshot (invariant 5).
private func retained<Object: AnyObject>(_ object: Object) -> Unmanaged<Object> {
    Unmanaged.passUnretained(object).retain()
}

/// What a shared scope keeps for one registration.
enum KeptState {
    case empty
    /// A resolve is making it: other resolves wait for the creation (``Waits``).
    case creating(Creation)
    /// Kept strongly: a `Kept<Service>`.
    case strong(AnyObject)
    /// Kept weakly, while others hold it.
    case weak(WeakReference)
}

/// A kept instance, in a box of its type, so that the typed call site reads it back with no
/// dynamic cast.
@usableFromInline
final class Kept<Service>: KeptBox {
    @usableFromInline let instance: Service
    private let padding = CacheLinePadding()

    init(_ instance: Service) {
        self.instance = instance
    }

    var value: Any { instance }
}

/// Room that keeps an object's header on a cache line of its own (see ``RegistryEntry``).
struct CacheLinePadding: Sendable {
    private let words: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )
}

/// A ``Kept`` box seen without its service type.
protocol KeptBox: AnyObject {
    var value: Any { get }
}

/// An object held weakly.
final class WeakReference {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}

/// A place a shared scope keeps one registration's instance in: a ``RegistryEntry``, or a
/// ``Lazy``'s storage.
protocol KeptSlot: AnyObject, Sendable {
    /// Runs `body` under the slot's lock with its kept state and the binding it belongs to now.
    func withKept<Result>(_ body: (inout KeptState, Binding?) -> Result) -> Result
}

extension KeptSlot {
    /// The instance kept now, if any. A strong reference loaded from a weak one may be the last:
    /// the caller lets it go, outside the lock.
    var keptInstance: Any? {
        withKept { kept, _ -> Any? in
            switch kept {
            case .strong(let box): (box as! any KeptBox).value
            case .weak(let reference): reference.object
            case .empty, .creating: nil
            }
        }
    }

    /// Drops the kept instance (and lets a creation under way keep nothing): returns it, for the
    /// caller to release with no lock held.
    func reset() -> Any? {
        withKept { kept, _ in
            defer { kept = .empty }
            return kept
        }
    }
}
