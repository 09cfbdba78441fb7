import Dispatch
@testable import PriceHost
import PriceHostTesting
import Testing

/// The per-fetch deadline: fires once when not cancelled, never after a cancel,
/// and a restart waits the whole delay again.
@Suite(.timeLimit(.minutes(1)))
struct FetchDeadlineTests {
    @Test func expiresOnceWhenNotCancelled() async throws {
        let fired = LockedBox(0)
        let deadline = FetchDeadline(after: .milliseconds(20)) { deadline in
            fired.update { $0 += 1 }
            deadline.cancel()
        }
        try await Self.wait(upTo: .seconds(5)) { fired.get() > 0 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(fired.get() == 1)
        _ = deadline
    }

    @Test func aCancelledDeadlineNeverExpires() async throws {
        let fired = LockedBox(0)
        // Cancelled long before its delay, then watched for three times the delay.
        let deadline = FetchDeadline(after: .milliseconds(300)) { _ in fired.update { $0 += 1 } }
        deadline.cancel()
        try await Task.sleep(for: .milliseconds(900))
        #expect(fired.get() == 0)
    }

    @Test func aRestartWaitsTheWholeDelayAgain() async throws {
        let fired = LockedBox<[ContinuousClock.Instant]>([])
        // A delay far longer than the short sleep before the restart, so that even a
        // loaded machine restarts it before it could have fired.
        let deadline = FetchDeadline(after: .seconds(2)) { deadline in
            fired.update { $0.append(.now) }
            deadline.cancel()
        }
        try await Task.sleep(for: .milliseconds(50))
        let restarted = ContinuousClock.now
        deadline.restart()
        try await Self.wait(upTo: .seconds(10)) { !fired.get().isEmpty }
        let times = fired.get()
        #expect(times.count == 1)
        // Not before the whole delay from the restart (20 ms for the two clocks); a lower bound only.
        #expect(times.first.map { restarted.duration(to: $0) >= .milliseconds(1980) } == true, "\(times)")
    }

    @Test func aFinishedFetchCancelsItsDeadline() async throws {
        let fired = LockedBox(0)
        let deadline = FetchDeadline(after: .milliseconds(300)) { _ in fired.update { $0 += 1 } }
        // Attached to a fetch that is not waiting (already finished): cancelled at once.
        PendingFetches.shared.attach(deadline, to: UInt.max)
        try await Task.sleep(for: .milliseconds(900))
        #expect(fired.get() == 0)
    }

    /// Polls `condition` every 10 ms until it holds or `limit` has passed.
    static func wait(upTo limit: Duration, until condition: () -> Bool) async throws {
        let end = ContinuousClock.now + limit
        while !condition(), ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
