import Dispatch

/// How long a fetch may go without its completion: a timer that is cancelled
/// when the fetch finishes. (A `DispatchQueue.asyncAfter` per fetch stayed
/// queued, with what it captured, until its 60 s were up: a `watch` polling ten
/// times a second carried 600 of them.)
///
/// `@unchecked Sendable`: a Dispatch timer may be rescheduled and cancelled from any thread.
final class FetchDeadline: @unchecked Sendable {
    private let timer: DispatchSourceTimer
    private let delay: DispatchTimeInterval

    /// Starts the timer; `expired` runs once `delay` has passed, unless cancelled or restarted first.
    init(after delay: DispatchTimeInterval, expired: @escaping @Sendable (FetchDeadline) -> Void) {
        self.delay = delay
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + delay)
        // Strongly: the cycle through the handler is what keeps the deadline alive
        // while it runs, and Dispatch drops the handler, breaking it, on cancel.
        // Every path cancels: completion and expiry both go through `take`.
        timer.setEventHandler { expired(self) }
        timer.resume()
    }

    /// Waits the whole delay again, from now.
    func restart() {
        timer.schedule(deadline: .now() + delay)
    }

    /// Stops the timer for good; `expired` will not run.
    package func cancel() {
        timer.cancel()
    }
}
