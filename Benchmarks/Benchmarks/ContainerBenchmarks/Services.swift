import Synchronization

// The services every container of the comparison registers, the same way in each, and the floor
// of the singleton rows.

/// The 4-object graph's leaf, shared by its two middles.
final class Leaf: @unchecked Sendable {}

/// The transient service: no dependencies.
final class TransientService: @unchecked Sendable {}

/// The `.container` singleton.
final class SingletonService: @unchecked Sendable {
    /// A cache line of state, so that two singletons never share one: the threads of the scaling
    /// benchmarks each retain their own singleton, and two 16-byte objects side by side would
    /// make their reference counts contend (false sharing) whatever the container does.
    var state: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}

/// A second `.container` singleton, for the second thread of the scaling benchmarks.
final class OtherSingletonService: @unchecked Sendable {
    var state: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}

/// The 4-object graph's middle: two of them, transient, over one leaf.
final class Middle: @unchecked Sendable {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

/// The 4-object graph: a root over two middles sharing one leaf.
final class Root: @unchecked Sendable {
    let left: Middle
    let right: Middle
    init(left: Middle, right: Middle) {
        self.left = left
        self.right = right
    }
}

/// `container`, once `resolveRoot` has given the 4-object graph from it: two middles over one
/// leaf. The graph rows' setups check this, so that every library's registrations mean the same.
func checkingGraph<Container>(_ container: Container, _ resolveRoot: (Container) throws -> Root) -> Container {
    let root = must { try resolveRoot(container) }
    precondition(root.left !== root.right && root.left.leaf === root.right.leaf, "not the 4-object graph")
    return container
}

/// The service of the one-argument rows: made from an `Int` given at each resolve.
final class Greeter: @unchecked Sendable {
    let times: Int
    init(_ times: Int) { self.times = times }
}

/// The argument the one-argument rows resolve `Greeter` with.
let greeterArgument = 5

/// The floor for a singleton: a lock and a dictionary from type to instance, cast back.
final class SingletonFloor: Sendable {
    let instances = Mutex<[ObjectIdentifier: SingletonService]>([
        ObjectIdentifier(SingletonService.self): SingletonService()
    ])

    func resolve() -> SingletonService? {
        instances.withLock { $0[ObjectIdentifier(SingletonService.self)] }
    }
}

/// One link of the depth benchmarks' chain.
final class Link: @unchecked Sendable {
    let next: Link?
    init(next: Link?) { self.next = next }
}

/// The length of the depth benchmarks' chain: each resolve of its head resolves every link.
let chainLength = 50

/// The name of link `index` of the chain: `link-07`.
func linkName(_ index: Int) -> String {
    index < 10 ? "link-0\(index)" : "link-\(index)"
}

/// `service-00042`: every name of the named rows has the same length.
func namedKey(_ index: Int) -> String {
    let digits = String(index)
    return "service-" + String(repeating: "0", count: 5 - digits.count) + digits
}

/// The name resolved by the named-lookup benchmarks: the middle one.
func middleName(of count: Int) -> String { namedKey(count / 2) }

/// The value of `body`; a benchmark whose resolution fails stops with the error.
@inline(__always)
func must<Value>(_ body: () throws -> Value) -> Value {
    do {
        return try body()
    } catch {
        fatalError("\(error)")
    }
}
