import ConcurrencyHelpers

/// How long a fetch may go without its completion: a timer that is cancelled
/// when the fetch finishes. (A `DispatchQueue.asyncAfter` per fetch stayed
/// queued, with what it captured, until its 60 s were up: a `watch` polling ten
/// times a second carried 600 of them.)
final class FetchDeadline: Sendable {
    private let clock: any PriceClock
    private let delay: Duration
    private let expired: @Sendable (FetchDeadline) -> Void
    /// The timer waiting now; `nil` once cancelled, for good.
    private let timer = Lock<ClockTimer??>(.some(nil))

    /// Starts the timer; `expired` runs once `delay` has passed on `clock`, unless cancelled or restarted first.
    init(after delay: Duration, clock: any PriceClock = SystemClock(), expired: @escaping @Sendable (FetchDeadline) -> Void) {
        self.clock = clock
        self.delay = delay
        self.expired = expired
        restart()
    }

    /// Waits the whole delay again, from now.
    func restart() {
        // Strongly: what keeps the deadline alive while it waits is the clock's hold on this action,
        // which it drops once the action ran or the timer was cancelled. Every path cancels:
        // completion and expiry both go through `take`.
        let next = clock.schedule(at: clock.now + delay) { [self] in expired(self) }
        let (replaced, cancelled) = timer.withLock { timer -> (ClockTimer?, Bool) in
            guard case .some(let waiting) = timer else { return (nil, true) }
            timer = .some(next)
            return (waiting, false)
        }
        replaced?.cancel()
        if cancelled { next.cancel() }
    }

    /// Stops the timer for good; `expired` will not run.
    package func cancel() {
        let waiting = timer.withLock { timer -> ClockTimer? in
            defer { timer = .none }
            return timer ?? nil
        }
        waiting?.cancel()
    }
}
