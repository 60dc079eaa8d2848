/// The graph-scoped instances of one top-level resolve, by registration.
///
/// A graph rarely holds more than a handful of services, so they are kept in a list searched
/// from the end (the latest are asked for most); a graph that grows past `indexThreshold`
/// instances gets a dictionary index as well.
@usableFromInline
struct GraphInstances {
    @usableFromInline var identities: [ObjectIdentifier] = []
    @usableFromInline var instances: [Any] = []
    @usableFromInline var index: [ObjectIdentifier: Int]?

    @usableFromInline
    static var indexThreshold: Int { 32 }

    @usableFromInline
    init() {}

    @inlinable
    var isEmpty: Bool { identities.isEmpty }

    @inlinable
    subscript(identity: ObjectIdentifier) -> Any? {
        get {
            if let index { return index[identity].map { instances[$0] } }
            var position = identities.endIndex
            while position > identities.startIndex {
                position -= 1
                if identities[position] == identity { return instances[position] }
            }
            return nil
        }
        set {
            // A registration is created once per graph, so setting is always appending.
            guard let newValue else { return }
            identities.append(identity)
            instances.append(newValue)
            if index != nil {
                index?[identity] = identities.count - 1
            } else if identities.count > Self.indexThreshold {
                index = Dictionary(uniqueKeysWithValues: zip(identities, identities.indices))
            }
        }
    }

    /// Forgets every instance, keeping the storage for the next resolve.
    @inlinable
    mutating func removeAll() {
        identities.removeAll(keepingCapacity: true)
        instances.removeAll(keepingCapacity: true)
        index = nil
    }
}
