import Glibc
import Synchronization

/// A value behind a spin lock: for state that one thread uses and others almost never touch.
///
/// Taking and releasing it is one atomic compare-and-exchange and one plain store, where
/// ``Lock`` (`pthread_mutex_t`) costs two atomic operations and two calls and
/// `Synchronization.Mutex` more still on Linux. A waiter spins, then yields its time slice, so
/// use it only where contention is a rare accident, never for state threads compete for.
/// ThreadSanitizer sees the atomic operations, so it checks what the lock guards.
///
/// `@unchecked Sendable` because this type's only job is to be that lock: `value` is read and
/// written only between acquiring `isLocked` and releasing it.
final class SpinLock<Value: Sendable>: @unchecked Sendable {
    private let isLocked = Atomic<Bool>(false)
    // Accessed only while the lock is held, so a dynamic exclusivity check would prove nothing.
    @exclusivity(unchecked) private var value: Value

    /// Creates a lock guarding `value`.
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. Not reentrant: calling `withLock` on the
    /// same lock from inside `body` never returns.
    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        if !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            waitAndLock()
        }
        defer { isLocked.store(false, ordering: .releasing) }
        return try body(&value)
    }

    @inline(never)
    private func waitAndLock() {
        var spins = 0
        repeat {
            if isLocked.load(ordering: .relaxed) {
                spins += 1
                if spins > 100 {
                    sched_yield()
                }
                continue
            }
        } while !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    }
}
