import ConcurrencyHelpers
import Dispatch

/// Runs async work from a connection's own thread and waits for it there.
///
/// Safe only on threads that are not Swift concurrency's (``DetachedThread``): the
/// waiting thread blocks, while the work runs on the cooperative pool.
enum BlockingBridge {
    static func wait<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
        let box = Lock<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            box.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        // The task stored a value before signalling.
        guard let value = box.withLock({ $0 }) else { preconditionFailure("BlockingBridge: task signalled without a value") }
        return value
    }
}
