import Dispatch
import FoundationEssentials

/// The machine's clocks: `ContinuousClock` for durations, `Date()` for wall time; sleeps are the
/// task's, and scheduled actions run on a Dispatch timer on a global queue.
package struct SystemClock: PriceClock {
    package init() {}

    package var now: ContinuousClock.Instant { .now }

    package var wallNow: Date { Date() }

    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: nil)
    }

    package func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
        let (seconds, attoseconds) = max(.zero, ContinuousClock.now.duration(to: deadline)).components
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
        // The handler holds the timer, and what `action` captures, until the cancel, which drops the handler:
        // after the action runs, or when the timer is cancelled first.
        timer.setEventHandler {
            action()
            timer.cancel()
        }
        timer.resume()
        let source = DispatchTimer(timer)
        return ClockTimer { source.cancel() }
    }
}

/// A Dispatch timer handed to other threads to be cancelled.
///
/// `@unchecked Sendable`: Dispatch sources may be cancelled from any thread (a second cancel does nothing).
private final class DispatchTimer: @unchecked Sendable {
    private let timer: any DispatchSourceTimer

    init(_ timer: any DispatchSourceTimer) {
        self.timer = timer
    }

    func cancel() {
        timer.cancel()
    }
}
