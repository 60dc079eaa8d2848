/// What a graph-scoped instance is kept under: its registration, and the container its
/// dependencies were looked up from (a parent's registration resolved through a child is built
/// from the child's registrations, and inside a parent's singleton from the parent's).
@usableFromInline
struct GraphKey: Hashable {
    @usableFromInline let registration: ObjectIdentifier
    @usableFromInline let container: ObjectIdentifier

    @inlinable
    init(registration: ObjectIdentifier, container: ObjectIdentifier) {
        self.registration = registration
        self.container = container
    }
}

/// The graph-scoped instances of one top-level resolve, by registration and lookup container.
///
/// A graph rarely holds more than a handful of services, so they are kept in a list searched
/// from the end (the latest are asked for most); a graph that grows past `indexThreshold`
/// instances gets a dictionary index as well. An instance of a class is kept as a plain
/// reference, so that reading it back needs no dynamic cast; anything else is kept as `Any`.
@usableFromInline
struct GraphInstances {
    /// The instances in the order they were created, each with its key.
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var index: [GraphKey: Int]?

    @usableFromInline
    struct Entry {
        @usableFromInline let key: GraphKey
        @usableFromInline let instance: Instance

        @inlinable
        init(key: GraphKey, instance: Instance) {
            self.key = key
            self.instance = instance
        }
    }

    @usableFromInline
    enum Instance {
        case object(AnyObject)
        case value(Any)
    }

    @usableFromInline
    static var indexThreshold: Int { 32 }

    @usableFromInline
    init() {}

    @inlinable
    var isEmpty: Bool { entries.isEmpty }

    /// The instance created for the registration `identity`, whose service type is `Service`.
    @inlinable @inline(__always)
    func instance<Service>(for identity: GraphKey, as _: Service.Type) -> Service? {
        guard let position = position(of: identity) else { return nil }
        switch entries[position].instance {
        case .object(let object):
            // Only a `Service` that is a class is stored as `.object`.
            return unsafeBitCast(object, to: Service.self)
        case .value(let value):
            return value as? Service
        }
    }

    /// Keeps `instance`, just created for the registration `identity`. (A registration is created
    /// at most once per graph, so this always appends.)
    @inlinable @inline(__always)
    mutating func insert<Service>(_ instance: Service, for identity: GraphKey) {
        if Service.self is AnyObject.Type {
            append(Entry(key: identity, instance: .object(unsafeBitCast(instance, to: AnyObject.self))))
        } else {
            append(Entry(key: identity, instance: .value(instance)))
        }
    }

    /// Keeps `entry`, indexing the list once it grows long.
    @inlinable @inline(__always)
    mutating func append(_ entry: Entry) {
        entries.append(entry)
        if index != nil {
            index?[entry.key] = entries.count - 1
        } else if entries.count > Self.indexThreshold {
            index = Dictionary(uniqueKeysWithValues: entries.indices.map { (entries[$0].key, $0) })
        }
    }

    @inlinable @inline(__always)
    func position(of identity: GraphKey) -> Int? {
        if let index { return index[identity] }
        var position = entries.endIndex
        while position > entries.startIndex {
            position -= 1
            if entries[position].key == identity { return position }
        }
        return nil
    }

    /// Forgets every instance, keeping the storage for the next resolve.
    @inlinable
    mutating func removeAll() {
        // A graph is a handful of instances: removing them one by one from the end is cheaper than
        // `removeAll(keepingCapacity:)`, which goes through a general range replacement.
        while !entries.isEmpty { entries.removeLast() }
        index = nil
    }
}
