import FoundationEssentials

/// Where the host reads the time and waits for it: the history, the fetch deadlines, the feeds'
/// staleness and timers, and the stream hub's retention take one, so that a test can move time
/// by hand (``TestClock``) instead of sleeping. The running host uses ``SystemClock``, the
/// default of every constructor that takes one.
///
/// Monotonic time (``now``) measures durations: deadlines, silence, retention. Wall time
/// (``wallNow``) stamps what a client sees: when a quote was received, an event id's epoch.
package protocol PriceClock: Sendable {
    /// Now, on the monotonic clock.
    var now: ContinuousClock.Instant { get }
    /// Now, on the wall clock.
    var wallNow: Date { get }
    /// Suspends the task until `deadline`; throws `CancellationError` when the task is cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws
    /// Runs `action` once, at `deadline`, on a thread of the clock's choosing (for code that waits
    /// outside a task), unless the returned timer is cancelled first.
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> ClockTimer
}

extension PriceClock {
    /// Suspends the task for `duration`; throws `CancellationError` when the task is cancelled first.
    package func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}

/// An action a ``PriceClock`` will run; cancelling it (from any thread, any number of times) means it will not.
package final class ClockTimer: Sendable {
    private let stop: @Sendable () -> Void

    package init(cancel: @escaping @Sendable () -> Void) {
        stop = cancel
    }

    /// Stops the timer: its action will not start (one already running finishes).
    package func cancel() {
        stop()
    }
}
