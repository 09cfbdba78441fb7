import ConcurrencyHelpers
import Dispatch
import Foundation

/// Runs `body`, which blocks (a child process, a build, a socket), on a thread of its
/// own, not on Swift concurrency's cooperative pool. That pool has as many threads as
/// cores (2 on CI's machine): tests that block it while `pricehost` runs or a plugin
/// builds starve every async test until they are done.
///
/// The body stays in the calling task (a task executor preference, not a new thread
/// of ours), so `#expect` inside it is recorded against the test that called it.
public func offThePool<T: Sendable>(_ body: @Sendable () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(SerialQueueExecutor(label: "PriceHostTesting.offThePool")) {
        try body()
    }
}

/// A task executor on a serial Dispatch queue of its own, whose threads are
/// Dispatch's, never the cooperative pool's: tasks on it run however busy the pool is.
public final class SerialQueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}

/// A task executor that runs each job on a Dispatch thread, never the cooperative
/// pool's, and runs jobs of different tasks side by side: each job goes to a new serial
/// queue, so Dispatch adds a thread rather than queue one job behind another (a task
/// has one job at a time, so its own jobs still run in order).
public final class DispatchThreadsExecutor: TaskExecutor {
    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue(label: "PriceHostTesting.offThePool").async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}

/// A task executor on one thread of its own, neither the cooperative pool's nor Dispatch's: for
/// async work that a test blocked on a Dispatch thread waits for (a server's `.later` answers).
/// On Dispatch's threads such work could wait for a thread that blocked tests hold. The thread
/// lives as long as the process; keep one executor per suite.
public final class OwnThreadExecutor: TaskExecutor {
    private let jobs = Lock<[UnownedJob]>([])
    private let waiting = DispatchSemaphore(value: 0)

    public init() {
        Thread.detachNewThread { [self] in
            while true {
                waiting.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        waiting.signal()
    }
}
