import TestFixtures
import Testing

@testable import TraitInjection

/// Direct tests of ``Frame``, the path of a resolve: depth, steps, and the cycle checks that walk
/// it — through nested top-level resolves too.
@Suite("Resolving: Frame")
struct FrameTests {
    /// A runtime argument that is not `Hashable`.
    struct Opaque {
        let value: Int
    }

    /// The registrations the tests build paths of, and a resolve to build them in.
    struct Paths {
        let container = Container()
        let a: Binding
        let b: Binding
        let c: Binding
        let d: Binding
        /// `Int (name: "r", arguments: Int)`, for recursions.
        let recursive: Binding
        /// `Int (name: "o", arguments: Opaque)`, for recursions with arguments that are not `Hashable`.
        let opaque: Binding

        init() throws {
            for name in ["a", "b", "c", "d"] { container.register(Int.self, name: name) { _ in 0 } }
            container.register(Int.self, name: "r") { (_, value: Int) in value }
            container.register(Int.self, name: "o") { (_, value: Opaque) in value.value }
            let registry = container.registry
            func binding(_ key: ServiceKey) throws -> Binding {
                try #require(registry.entry(for: key)?.read().binding)
            }
            a = try binding(ServiceKey(Int.self, name: "a", arguments: Void.self))
            b = try binding(ServiceKey(Int.self, name: "b", arguments: Void.self))
            c = try binding(ServiceKey(Int.self, name: "c", arguments: Void.self))
            d = try binding(ServiceKey(Int.self, name: "d", arguments: Void.self))
            recursive = try binding(ServiceKey(Int.self, name: "r", arguments: Int.self))
            opaque = try binding(ServiceKey(Int.self, name: "o", arguments: Opaque.self))
        }

        func resolve(nestedIn entry: Frame? = nil) -> Resolve {
            Resolve(container, entry: entry, isAsync: false)
        }

        /// A path of `bindings`, outermost first, in `resolve`, continuing `outer`.
        func path(
            _ bindings: [Binding], arguments: [ArgumentValues?]? = nil, in resolve: Resolve, after outer: Frame? = nil
        )
            -> Frame?
        {
            var frame = outer
            for (index, binding) in bindings.enumerated() {
                frame = Frame(resolve, binding, arguments: arguments?[index], outer: frame, creation: nil)
            }
            return frame
        }
    }

    @Test("Frames link outward: depth, the path from the outermost, and the cycle back to a registration on it")
    func pathAndCycles() throws {
        let paths = try Paths()
        let frame = try #require(paths.path([paths.a, paths.b, paths.c], in: paths.resolve()))
        #expect(frame.depth == 3)
        #expect(frame.steps.map(\.service) == [#"Int (name: "a")"#, #"Int (name: "b")"#, #"Int (name: "c")"#])
        #expect(
            frame.chain.map { ObjectIdentifier($0.binding) } == [paths.c, paths.b, paths.a].map(ObjectIdentifier.init))
        // Back to the outermost: the whole path; back to itself: the last step.
        #expect(frame.cycle(back: paths.a, nil).cycle == frame.steps)
        #expect(frame.cycle(back: paths.a, nil).recurs)
        #expect(frame.cycle(back: paths.c, nil).cycle == [paths.c.step])
        // Not on the path.
        let other = frame.cycle(back: paths.d, nil)
        #expect(other.cycle == nil && !other.recurs)
        let shorter = try #require(frame.outer).cycle(back: paths.c, nil)
        #expect(shorter.cycle == nil && !shorter.recurs)
    }

    @Test(
        "A registration met again with other arguments recurs; with the same ones, the path from the first is a cycle")
    func recursionAndArguments() throws {
        let paths = try Paths()
        let three = paths.recursive
        // As a resolve records them: hashed once the registration recurs.
        let frame = try #require(
            paths.path(
                [paths.a, three, three, three],
                arguments: [nil, ArgumentValues.of(3), ArgumentValues.of(2)?.hashed, ArgumentValues.of(1)?.hashed],
                in: paths.resolve()
            ))
        let fresh = frame.cycle(back: three, ArgumentValues.of(0))
        #expect(fresh.cycle == nil && fresh.recurs)
        let again = frame.cycle(back: three, ArgumentValues.of(2))
        #expect(again.cycle == [three.step, three.step])
        let first = frame.cycle(back: three, ArgumentValues.of(3))
        #expect(first.cycle == [three.step, three.step, three.step])
        // Without arguments, a registration that takes some is another resolve.
        #expect(frame.cycle(back: three, nil).cycle == nil)
        // Values that are not Hashable never match: such a recursion ends at the depth limit.
        let opaque = try #require(
            paths.path(
                [paths.opaque, paths.opaque],
                arguments: [ArgumentValues.of(Opaque(value: 1)), ArgumentValues.of(Opaque(value: 1))],
                in: paths.resolve()
            ))
        let unmatched = opaque.cycle(back: paths.opaque, ArgumentValues.of(Opaque(value: 1)))
        #expect(unmatched.cycle == nil && unmatched.recurs)
    }

    @Test("A nested top-level resolve continues the path of the factory that started it, while that resolve runs")
    func nestedResolveContinuesThePath() throws {
        let paths = try Paths()
        let outer = paths.resolve()
        let entry = try #require(paths.path([paths.a, paths.b], in: outer))
        let nested = paths.resolve(nestedIn: entry)
        #expect(nested.outer === outer)
        #expect(nested.entry === entry)
        #expect(nested.root === outer)
        #expect(nested.isInTree(of: outer))
        // Its frames go on from the entry: a cycle back through the outer resolve is found.
        let frame = try #require(paths.path([paths.c], in: nested, after: entry))
        #expect(frame.depth == 3)
        #expect(frame.cycle(back: paths.a, nil).cycle?.map(\.service) == frame.steps.map(\.service))
        #expect(frame.cycle(back: paths.b, nil).cycle?.count == 2)
        // Once the outer resolve has ended, a resolve started from its frame stands alone.
        outer.fail()
        #expect(!outer.isRunning)
        let late = paths.resolve(nestedIn: entry)
        #expect(late.outer == nil)
        #expect(late.entry == nil)
        #expect(late.root === late)
        #expect(!late.isInTree(of: outer))
    }
}
