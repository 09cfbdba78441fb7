import Dispatch
@testable import PriceHostCore
import PriceHostTesting
import Testing

/// The per-fetch deadline: fires once when not cancelled, never after a cancel,
/// and a restart waits the whole delay again. On a ``TestClock``, whose `advance`
/// runs what came due before it returns: time passes without a sleep.
@Suite(.timeLimit(.minutes(1)))
struct FetchDeadlineTests {
    @Test func expiresOnceWhenNotCancelled() {
        let clock = TestClock()
        let fired = LockedBox(0)
        let deadline = FetchDeadline(after: .milliseconds(20), clock: clock) { deadline in
            fired.update { $0 += 1 }
            deadline.cancel()
        }
        clock.advance(by: .milliseconds(19))
        #expect(fired.get() == 0)
        clock.advance(by: .milliseconds(1))
        #expect(fired.get() == 1)
        clock.advance(by: .seconds(10))
        #expect(fired.get() == 1)
        _ = deadline
    }

    @Test func onTheSystemClockItExpiresToo() {
        let done = DispatchSemaphore(value: 0)
        let deadline = FetchDeadline(after: .milliseconds(20)) { deadline in
            deadline.cancel()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        _ = deadline
    }

    @Test func aCancelledDeadlineNeverExpires() {
        let clock = TestClock()
        let fired = LockedBox(0)
        // Cancelled right away, then watched for three times its delay.
        let deadline = FetchDeadline(after: .milliseconds(300), clock: clock) { _ in fired.update { $0 += 1 } }
        deadline.cancel()
        #expect(clock.pendingTimers == 0)
        clock.advance(by: .milliseconds(900))
        #expect(fired.get() == 0)
    }

    @Test func aRestartWaitsTheWholeDelayAgain() {
        let clock = TestClock()
        let fired = LockedBox<[ContinuousClock.Instant]>([])
        let deadline = FetchDeadline(after: .seconds(2), clock: clock) { deadline in
            fired.update { $0.append(clock.now) }
            deadline.cancel()
        }
        clock.advance(by: .milliseconds(300))
        let restarted = clock.now
        deadline.restart()
        // Past the first deadline: nothing, since the restart waits the whole delay from its own time.
        clock.advance(by: .milliseconds(1_999))
        #expect(fired.get().isEmpty)
        #expect(clock.pendingTimers == 1)
        clock.advance(by: .milliseconds(1))
        #expect(fired.get() == [restarted + .seconds(2)])
        clock.advance(by: .seconds(10))
        #expect(fired.get().count == 1)
    }

    @Test func aFinishedFetchCancelsItsDeadline() {
        let clock = TestClock()
        let fired = LockedBox(0)
        let deadline = FetchDeadline(after: .milliseconds(300), clock: clock) { _ in fired.update { $0 += 1 } }
        // Attached to a fetch that is not waiting (already finished): cancelled at once.
        PendingFetches.shared.attach(deadline, to: UInt.max)
        #expect(clock.pendingTimers == 0)
        clock.advance(by: .milliseconds(900))
        #expect(fired.get() == 0)
    }
}
