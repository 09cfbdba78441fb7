import Glibc

/// A value behind a `pthread_mutex_t`: the lock for state that several threads contend for.
///
/// Why a `pthread_mutex_t` and not `Synchronization.Mutex`: on Linux, `Mutex` hands a contended
/// lock from one thread to the next inside the kernel (a priority-inheritance futex), where
/// ThreadSanitizer cannot see it, so every contended use is reported as a data race and real
/// races would drown among them. ThreadSanitizer intercepts `pthread_mutex_lock`, so what it
/// reports here is real.
///
/// `@unchecked Sendable` because this type's only job is to be that lock: `value` is read and
/// written only between `pthread_mutex_lock` and `pthread_mutex_unlock`.
package final class Lock<Value: Sendable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Accessed only between lock and unlock, so the dynamic exclusivity check the compiler
    // would otherwise add on every `withLock` (a thread-local access set, ~5 ns) proves nothing.
    @usableFromInline @exclusivity(unchecked) var value: Value

    /// Creates a lock guarding `value`.
    package init(_ value: Value) {
        // Allocated apart from the object so that its address never changes.
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        guard pthread_mutex_init(mutex, nil) == 0 else {
            fatalError("pthread_mutex_init failed; the process is out of resources")
        }
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Not reentrant: calling `withLock` on the
    /// same lock from inside `body` deadlocks.
    // Inlinable: the container's hot path takes this lock from another module.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
