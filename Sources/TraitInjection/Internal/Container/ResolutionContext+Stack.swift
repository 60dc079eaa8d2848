import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#else
    #error("TraitInjection supports Darwin, Glibc and Musl platforms.")
#endif

extension ResolutionContext {
    /// The most services a chain of dependencies may nest; a deeper one throws
    /// ``ResolutionError/Kind-swift.enum/tooDeep``.
    @usableFromInline
    static var maximumDepth: Int { 10_000 }

    /// The most top-level resolves one thread may nest (a factory calling `container.resolve`,
    /// which calls it again, …); a deeper one throws ``ResolutionError/Kind-swift.enum/tooDeep``.
    static var maximumNesting: Int { 1_000 }

    /// The stack of each helper thread a deep resolve continues on: reserved address space,
    /// committed only as it is used.
    static let helperStackSize = 64 * 1024 * 1024

    /// How many services this thread's chain is creating.
    var chainDepth: Int {
        depthBase + path.count
    }

    /// Calls `factory` on a helper thread with a large stack, while this thread waits: the chain
    /// of dependencies is too deep for what is left of this thread's stack (a secondary thread's
    /// 512 KiB holds a few hundred).
    ///
    /// The chain moves to the helper for the call: its contexts accept resolvers on the helper
    /// thread, a nested top-level resolve there joins the chain, and the library's own task-local
    /// values (``Container/shared`` and injector default overrides) are bound there too. A
    /// factory's own task-local values are not: see the Thread safety article.
    ///
    /// - Throws: ``ResolutionError/Kind-swift.enum/tooDeep`` past ``maximumDepth`` services, or
    ///   if the system grants no helper thread.
    @usableFromInline
    func callOnLargerStack<Service>(
        _ registration: any AnyRegistration,
        _ factory: () throws -> Service
    ) throws -> Service {
        guard chainDepth < Self.maximumDepth else { throw tooDeep(registration) }
        var outcome: Result<Service, any Error>?
        let contexts = chain()
        let saved = contexts.map { ($0.thread.load(ordering: .relaxed), $0.stack) }
        let overrides = InjectorOverrides.current
        let shared = Container.taskShared
        let root = self.root!
        Self.onHelperThread(stackSize: Self.helperStackSize) {
            let stack = ThreadStack.current()
            for context in contexts {
                context.thread.store(currentThreadBits(), ordering: .relaxed)
                context.stack = stack
            }
            pthread_setspecific(ThreadContexts.shared.key, Unmanaged.passUnretained(root).toOpaque())
            outcome = InjectorOverrides.$current.withValue(overrides) {
                Container.$taskShared.withValue(shared) { Result { try factory() } }
            }
            // The helper exits without the chain: its exit must not recycle the root.
            pthread_setspecific(ThreadContexts.shared.key, nil)
        }
        for (context, (thread, stack)) in zip(contexts, saved) {
            context.thread.store(thread, ordering: .relaxed)
            context.stack = stack
        }
        // No helper thread (the system refused one): the chain is as deep as this stack allows.
        guard let outcome else { throw tooDeep(registration) }
        return try outcome.get()
    }

    /// Runs `work` on a new thread with a stack of `stackSize` bytes and waits for it; does
    /// nothing if the system grants no such thread.
    ///
    /// - Returns: Whether `work` ran.
    ///
    /// `work` is not `@Sendable`, yet runs on another thread: this thread does nothing until the
    /// helper has finished (`pthread_join`), so the two never touch what `work` captures at the
    /// same time, and thread creation and joining order their memory accesses.
    @discardableResult
    static func onHelperThread(stackSize: Int, _ work: () -> Void) -> Bool {
        withoutActuallyEscaping(work) { work in
            final class Work {
                let run: () -> Void
                init(_ run: @escaping () -> Void) { self.run = run }
            }
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, stackSize)
            let box = Unmanaged.passRetained(Work(work)).toOpaque()
            #if canImport(Darwin)
                var thread: pthread_t?
            #else
                var thread = pthread_t()
            #endif
            let result = pthread_create(
                &thread,
                &attributes,
                { pointer in
                    #if canImport(Darwin)
                        Unmanaged<Work>.fromOpaque(pointer).takeRetainedValue().run()
                    #else
                        Unmanaged<Work>.fromOpaque(pointer!).takeRetainedValue().run()
                    #endif
                    return nil
                },
                box
            )
            // Without a thread, `work` does not run: the caller reports the chain as too deep.
            guard result == 0 else {
                Unmanaged<Work>.fromOpaque(box).release()
                return false
            }
            #if canImport(Darwin)
                pthread_join(thread!, nil)
            #else
                pthread_join(thread, nil)
            #endif
            return true
        }
    }
}
