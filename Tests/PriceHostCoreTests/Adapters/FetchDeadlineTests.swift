import Dispatch
import Glibc
@testable import PriceHostCore
import PriceHostTesting
import Testing

/// The per-fetch deadline: fires once when not cancelled, never after a cancel,
/// and a restart waits the whole delay again.
///
/// Synchronous, with blocking waits: an async test's sleep can take seconds to
/// resume when the other tests' work fills the cooperative pool, while the
/// timers under test run on Dispatch's own threads regardless.
@Suite(.timeLimit(.minutes(5)))
struct FetchDeadlineTests {
    @Test func expiresOnceWhenNotCancelled() {
        let fired = LockedBox(0)
        let done = DispatchSemaphore(value: 0)
        let deadline = FetchDeadline(after: .milliseconds(20)) { deadline in
            fired.update { $0 += 1 }
            deadline.cancel()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        usleep(100_000)
        #expect(fired.get() == 1)
        _ = deadline
    }

    @Test func aCancelledDeadlineNeverExpires() {
        let fired = LockedBox(0)
        // Cancelled right away, then watched for three times its delay.
        let deadline = FetchDeadline(after: .milliseconds(300)) { _ in fired.update { $0 += 1 } }
        deadline.cancel()
        usleep(900_000)
        #expect(fired.get() == 0)
    }

    @Test func aRestartWaitsTheWholeDelayAgain() throws {
        let fired = LockedBox<[ContinuousClock.Instant]>([])
        let done = DispatchSemaphore(value: 0)
        let deadline = FetchDeadline(after: .seconds(2)) { deadline in
            fired.update { $0.append(.now) }
            deadline.cancel()
            done.signal()
        }
        usleep(300_000)
        let restarted = ContinuousClock.now
        deadline.restart()
        let firedBeforeTheRestart = !fired.get().isEmpty
        #expect(done.wait(timeout: .now() + 10) == .success)
        let times = fired.get()
        #expect(times.count == 1)
        // Only when the restart came first, as it does unless this thread lost 1.7 s;
        // then not before the whole delay from the restart (20 ms for the two clocks).
        if !firedBeforeTheRestart {
            #expect(times.first.map { restarted.duration(to: $0) >= .milliseconds(1980) } == true, "\(times) restarted \(restarted)")
        }
    }

    @Test func aFinishedFetchCancelsItsDeadline() {
        let fired = LockedBox(0)
        let deadline = FetchDeadline(after: .milliseconds(300)) { _ in fired.update { $0 += 1 } }
        // Attached to a fetch that is not waiting (already finished): cancelled at once.
        PendingFetches.shared.attach(deadline, to: UInt.max)
        usleep(900_000)
        #expect(fired.get() == 0)
    }
}
