// Release-mode checks that the test target cannot run yet (Swift 6.3.1 crashes building the test
// target with optimisation): a 1,000-deep chain on a 512 KiB thread, and a far deeper one that
// ends in `.tooDeep`. Prints one line per check; exits non-zero on failure.
import TraitInjection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

final class Link: Sendable {
    let next: Link?
    init(next: Link?) { self.next = next }
}

final class Work {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

func onThread(stackSize: Int, _ body: @escaping () -> Void) {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstacksize(&attributes, stackSize)
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Work(body)).toOpaque()
    let created = pthread_create(
        &thread, &attributes,
        {
            Unmanaged<Work>.fromOpaque($0!).takeRetainedValue().run(); return nil
        }, box)
    precondition(created == 0)
    pthread_join(thread, nil)
}

let container = Container()
container.register(Link.self) { (r, depth: Int) in
    Link(next: depth == 0 ? nil : try r.resolve(Link.self, arguments: depth - 1))
}
var failures = 0
onThread(stackSize: 512 * 1024) {
    do {
        var link: Link? = try container.resolve(Link.self, arguments: 999)
        var count = 0
        while let current = link {
            count += 1
            link = current.next
        }
        print("release: a chain of \(count) services resolved on a 512 KiB thread")
        if count != 1_000 { failures += 1 }
    } catch {
        print("release: FAILED a 1,000-deep chain on a 512 KiB thread: \(error)")
        failures += 1
    }
    do {
        _ = try container.resolve(Link.self, arguments: 1_000_000)
        print("release: FAILED a 1,000,000-deep chain resolved")
        failures += 1
    } catch let error as ResolutionError where error.kind == .tooDeep {
        print("release: a far deeper chain stopped at depth \(error.depth ?? 0) with .tooDeep")
    } catch {
        print("release: FAILED a far deeper chain threw \(error)")
        failures += 1
    }
}
exit(failures == 0 ? 0 : 1)
