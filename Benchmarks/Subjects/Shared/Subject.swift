// One container under test with the rows' registrations, compiled once per module under test:
// `Subjects/<name>/Subject.swift` links here, and each subject target imports its own build of
// the library (see `Package.swift`), so every variant runs exactly the same code.

#if VARIANT_DictionarySnapshot
    import TraitInjectionDictionarySnapshot
#elseif VARIANT_MutexCell
    import TraitInjectionMutexCell
#elseif VARIANT_LockedRegistry
    import TraitInjectionLockedRegistry
#elseif VARIANT_NewContext
    import TraitInjectionNewContext
#elseif VARIANT_UncheckedExclusivity
    import TraitInjectionUncheckedExclusivity
#elseif VARIANT_LockedAsyncLookup
    import TraitInjectionLockedAsyncLookup
#else
    import TraitInjection
#endif

final class TransientService: Sendable {}

final class SingletonService: Sendable {}

final class AsyncSingletonService: Sendable {}

/// Returns at once: what makes a factory async without measuring a suspension.
func ready() async {}

final class Leaf: Sendable {}

final class Middle: Sendable {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
}

final class Root: Sendable {
    let left: Middle
    let right: Middle
    init(left: Middle, right: Middle) {
        self.left = left
        self.right = right
    }
}

final class Link: Sendable {
    let next: Link?
    init(next: Link?) { self.next = next }
}

/// A container with a transient service, a cached singleton, a 4-object graph and a chain of 50
/// links resolved by name.
public final class Subject: Sendable {
    let container = Container()

    public init() {
        container.register(TransientService.self) { _ in TransientService() }.inScope(.transient)
        container.register(SingletonService.self) { _ in SingletonService() }.inScope(.container)
        container.register(Leaf.self) { _ in Leaf() }
        container.register(Middle.self) { r in Middle(leaf: try r.resolve(Leaf.self)) }.inScope(.transient)
        container.register(Root.self) { r in
            Root(left: try r.resolve(Middle.self), right: try r.resolve(Middle.self))
        }
        for index in 0..<50 {
            let next = index < 49 ? "link-\(index + 1)" : nil
            container.register(Link.self, name: "link-\(index)") { r in
                Link(next: try next.map { try r.resolve(Link.self, name: $0) })
            }
            .inScope(.transient)
        }
        container.register(AsyncSingletonService.self) { _ in
            await ready()
            return AsyncSingletonService()
        }
        .inScope(.container)
        _ = singleton()
    }

    /// A subject whose async singleton is made, before the rows measure it.
    public static func warm() async -> Subject {
        let subject = Subject()
        _ = await subject.asyncSingleton()
        return subject
    }

    public func asyncSingleton() async -> AnyObject {
        do {
            return try await container.resolveAsync(AsyncSingletonService.self)
        } catch {
            fatalError("\(error)")
        }
    }

    public func transient() -> AnyObject { must { try container.resolve(TransientService.self) } }

    public func singleton() -> AnyObject { must { try container.resolve(SingletonService.self) } }

    public func graph() -> AnyObject { must { try container.resolve(Root.self) } }

    public func chain() -> AnyObject { must { try container.resolve(Link.self, name: "link-0") } }

    private func must<Value>(_ body: () throws -> Value) -> Value {
        do {
            return try body()
        } catch {
            fatalError("\(error)")
        }
    }
}
