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
    @usableFromInline var identities: [GraphKey] = []
    @usableFromInline var instances: [Instance] = []
    @usableFromInline var index: [GraphKey: Int]?

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
    var isEmpty: Bool { identities.isEmpty }

    /// The instance created for the registration `identity`, whose service type is `Service`.
    @inlinable @inline(__always)
    func instance<Service>(for identity: GraphKey, as _: Service.Type) -> Service? {
        guard let position = position(of: identity) else { return nil }
        switch instances[position] {
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
            instances.append(.object(unsafeBitCast(instance, to: AnyObject.self)))
        } else {
            instances.append(.value(instance))
        }
        identities.append(identity)
        if index != nil {
            index?[identity] = identities.count - 1
        } else if identities.count > Self.indexThreshold {
            index = Dictionary(uniqueKeysWithValues: zip(identities, identities.indices))
        }
    }

    @inlinable @inline(__always)
    func position(of identity: GraphKey) -> Int? {
        if let index { return index[identity] }
        var position = identities.endIndex
        while position > identities.startIndex {
            position -= 1
            if identities[position] == identity { return position }
        }
        return nil
    }

    /// Forgets every instance, keeping the storage for the next resolve.
    @inlinable
    mutating func removeAll() {
        // A graph is a handful of instances: removing them one by one from the end is cheaper than
        // `removeAll(keepingCapacity:)`, which goes through a general range replacement.
        while !instances.isEmpty { instances.removeLast() }
        while !identities.isEmpty { identities.removeLast() }
        index = nil
    }
}
