#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a mutex: mosaic's one lock type.
///
/// A pthread mutex rather than `Synchronization.Mutex`: on Linux the latter waits on a
/// futex inside the uninstrumented standard library, so ThreadSanitizer sees no ordering
/// and reports every value it guards as a race (a two-thread counter under `Mutex` is
/// flagged); pthread calls are intercepted, so races reported under `Locked` are real.
///
/// `@unchecked Sendable`: the value is read and written only inside `withLock`, with the
/// mutex held.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // Both on the heap: a pthread mutex must not move, and a value held in a stored
    // property of this generic class would be a zero-sized field for `Locked<Void>`, whose
    // accesses ThreadSanitizer places on the object's header (a false race with the read of
    // the class metadata).
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    public init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the mutex held and the value to read or change.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
