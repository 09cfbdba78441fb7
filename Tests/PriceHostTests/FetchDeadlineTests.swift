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
        let deadline = FetchDeadline(after: .milliseconds(50)) { _ in fired.update { $0 += 1 } }
        deadline.cancel()
        try await Task.sleep(for: .milliseconds(300))
        #expect(fired.get() == 0)
    }

    @Test func aRestartWaitsTheWholeDelayAgain() async throws {
        let fired = LockedBox<[ContinuousClock.Instant]>([])
        let start = ContinuousClock.now
        let deadline = FetchDeadline(after: .milliseconds(150)) { deadline in
            fired.update { $0.append(.now) }
            deadline.cancel()
        }
        try await Task.sleep(for: .milliseconds(100))
        deadline.restart()
        try await Self.wait(upTo: .seconds(5)) { !fired.get().isEmpty }
        let times = fired.get()
        #expect(times.count == 1)
        // Restarted at 100 ms or later, so it cannot have fired before 250 ms; a lower bound only.
        #expect(times.first.map { start.duration(to: $0) >= .milliseconds(250) } == true, "\(times)")
    }

    @Test func aFinishedFetchCancelsItsDeadline() async throws {
        let fired = LockedBox(0)
        let deadline = FetchDeadline(after: .milliseconds(50)) { _ in fired.update { $0 += 1 } }
        // Attached to a fetch that is not waiting (already finished): cancelled at once.
        PendingFetches.shared.attach(deadline, to: UInt.max)
        try await Task.sleep(for: .milliseconds(300))
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
