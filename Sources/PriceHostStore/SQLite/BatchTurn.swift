import Glibc

/// Lets a thread waiting for the writer's core have it, every ``slice`` of a batch's work, for the first
/// ``budget`` of the batch.
///
/// A batch is a burst of a millisecond or more; the scheduler lets a running thread finish its slice
/// before a thread that wakes on its core (a stream's, with a price to pass on) runs, so the stream's
/// p99 rose by the burst. A yield lets the waiting thread run, and costs a system call when none waits.
///
/// Bounded, because a yield on a loaded machine waits for every other runnable thread's turn: a writer
/// yielding all through its batch would fall behind as an idle-priority one did, and the crash promise
/// (a second at most lost) needs it to keep up. Past ``budget`` from the batch's start the writer runs
/// its batch out at its normal priority (BENCHMARKS.md, "The writer yields its core within a batch"). At
/// 10,000 quotes a second a 100 ms batch is about 1,000 quotes, 3 to 4 ms on a quiet machine: within it.
struct BatchTurn {
    static let slice: Duration = .microseconds(50)
    static let budget: Duration = .milliseconds(5)

    private let started = ContinuousClock.now
    private var since = ContinuousClock.now

    /// Yields once `slice` has passed since the last yield, while the batch is within its budget.
    mutating func step() {
        let now = ContinuousClock.now
        if now - since >= Self.slice { yield(at: now) }
    }

    private mutating func yield(at now: ContinuousClock.Instant) {
        guard now - started < Self.budget else { return }
        sched_yield()
        since = .now
    }
}
