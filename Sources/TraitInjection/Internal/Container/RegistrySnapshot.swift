/// An immutable copy of a container's registrations, read by lookups without a lock.
///
/// The table lives in memory of its own rather than in arrays, so that a lookup copies no array
/// and so retains nothing that other threads' lookups retain too.
@usableFromInline
final class RegistrySnapshot: @unchecked Sendable {
    @usableFromInline let mask: Int
    @usableFromInline let keys: UnsafeMutablePointer<ServiceKey?>
    /// The registrations, unretained: `registrations` owns them.
    @usableFromInline let objects: UnsafeMutablePointer<Unmanaged<AnyObject>?>
    private let registrations: [any AnyRegistration]

    // `@unchecked Sendable`: the memory is written once, here, before the snapshot is published,
    // and only read afterwards; it is freed once no resolve can read it (`RetiredSnapshot`).
    init(table: RegistrationTable) {
        let capacity = table.keys.count
        mask = capacity - 1
        // One block on cache lines of its own: every lookup reads it, so a line shared with
        // something another thread writes (such as a singleton's reference count) would slow
        // every lookup down.
        let line = 64
        let keysSize = MemoryLayout<ServiceKey?>.stride * capacity
        let objectsOffset = (keysSize + line - 1) / line * line
        let size = objectsOffset + MemoryLayout<Unmanaged<AnyObject>?>.stride * capacity
        let block = UnsafeMutableRawPointer.allocate(byteCount: (size + line - 1) / line * line + line, alignment: line)
        keys = block.bindMemory(to: ServiceKey?.self, capacity: capacity)
        keys.initialize(from: table.keys, count: capacity)
        objects = (block + objectsOffset).bindMemory(to: Unmanaged<AnyObject>?.self, capacity: capacity)
        objects.initialize(from: table.values.map { $0.map { Unmanaged.passUnretained($0) } }, count: capacity)
        registrations = table.values.compactMap(\.self)
    }

    deinit {
        keys.deinitialize(count: mask + 1)
        UnsafeMutableRawPointer(keys).deallocate()
    }

    /// The registration filed under `key`.
    @inlinable @inline(__always)
    func registration(for key: ServiceKey) -> Unmanaged<AnyObject>? {
        var index = RegistrationTable.slot(for: key, mask: mask)
        while let candidate = keys[index] {
            if candidate == key { return objects[index] }
            index = (index + 1) & mask
        }
        return nil
    }
}
