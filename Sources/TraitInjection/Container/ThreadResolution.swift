#if canImport(Darwin)
    public import Darwin
#elseif canImport(Glibc)
    public import Glibc
#elseif canImport(Musl)
    public import Musl
#endif

/// The thread-local slot that holds each thread's reusable ``Resolution`` between top-level
/// resolves.
///
/// The slot owns one reference to its thread's resolution, released when the thread exits. A
/// resolve borrows the resolution without retaining it and marks it in use, so that a nested
/// top-level resolve on the same thread makes one of its own.
///
/// There is one slot in the process (thread-local keys are scarce); each container copies it,
/// so that a resolve reads it without the check of a lazily initialised global.
@usableFromInline
struct ThreadResolution: Sendable {
    @usableFromInline
    let key: pthread_key_t

    /// The process's slot.
    static let shared = ThreadResolution()

    private init() {
        key = makeThreadLocalKey(releasingObjects: true)
    }

    /// This thread's resolution (unretained: the slot owns it), if it has one.
    @inlinable
    var pointer: UnsafeMutableRawPointer? { pthread_getspecific(key) }

    /// Makes `pointer` (a +1 reference, now the slot's) this thread's resolution, or empties the
    /// slot with `nil` (whoever took the slot's reference releases it).
    @usableFromInline
    func store(_ pointer: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, pointer)
    }
}
