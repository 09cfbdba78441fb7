import FoundationEssentials
@testable import PriceHostCore
import PriceHostTestTraits
import PriceHostTesting
import Testing

/// The test clock: it moves only when advanced, runs what came due in deadline order at
/// its own time, wakes sleepers, and forgets what was cancelled. Off the cooperative pool, the
/// sleepers included: other tests' blocking cannot stall them.
@Suite(.offThePool, .timeLimit(.minutes(1)))
struct TestClockTests {
    @Test func advancingRunsWhatCameDueInDeadlineOrderEachAtItsTime() {
        let clock = TestClock()
        let start = clock.now
        let startWall = clock.wallNow
        let ran = LockedBox<[(String, Duration, Double)]>([])
        for (name, delay) in [("b", 200), ("a", 100), ("c", 300)] {
            _ = clock.schedule(at: start + .milliseconds(delay)) {
                ran.update { $0.append((name, start.duration(to: clock.now), clock.wallNow.timeIntervalSince(startWall))) }
            }
        }
        clock.advance(by: .milliseconds(250))
        #expect(ran.get().map(\.0) == ["a", "b"])
        #expect(ran.get().map(\.1) == [.milliseconds(100), .milliseconds(200)])
        #expect(ran.get().map { ($0.2 * 1000).rounded() } == [100, 200])
        #expect(clock.now == start + .milliseconds(250))
        #expect(clock.pendingTimers == 1)
        clock.advance(by: .seconds(1))
        #expect(ran.get().map(\.0) == ["a", "b", "c"])
        #expect(clock.pendingTimers == 0)
        #expect((clock.wallNow.timeIntervalSince(startWall) * 1000).rounded() == 1250)
    }

    @Test func aCancelledTimerNeverRuns() {
        let clock = TestClock()
        let ran = LockedBox(false)
        let timer = clock.schedule(at: clock.now + .seconds(1)) { ran.update { $0 = true } }
        timer.cancel()
        timer.cancel()
        clock.advance(by: .seconds(5))
        #expect(!ran.get())
    }

    @Test func aSleeperWakesWhenTimeReachesItsDeadline() async throws {
        let clock = TestClock()
        let start = clock.now
        let sleeper = Task(executorPreference: DispatchThreadsExecutor()) { try await clock.sleep(for: .seconds(60)); return clock.now }
        #expect(await clock.waitForTimers(atLeast: 1))
        clock.advance(by: .seconds(59))
        #expect(clock.pendingTimers == 1)
        clock.advance(by: .seconds(1))
        #expect(try await sleeper.value == start + .seconds(60))
    }

    @Test func aCancelledSleeperThrowsAndStopsWaiting() async {
        let clock = TestClock()
        let sleeper = Task(executorPreference: DispatchThreadsExecutor()) { try await clock.sleep(for: .seconds(60)) }
        #expect(await clock.waitForTimers(atLeast: 1))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingTimers == 0)
    }

    @Test func sleepingUntilAPassedDeadlineReturnsAtOnce() async throws {
        let clock = TestClock()
        try await clock.sleep(until: clock.now)
        try await clock.sleep(for: .zero)
        #expect(clock.pendingTimers == 0)
    }
}
