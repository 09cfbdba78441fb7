@testable import PriceHostCore
import PriceHostTesting
import Testing

/// A delivery rule's heartbeat timers on a test clock.
struct HeartbeatTimersTests {
    @Test func aTimerFiresAfterTheHeartbeatAndIsTimedAgainFromWhatItSays() {
        let clock = TestClock()
        let start = clock.now
        let timers = HeartbeatTimers<String>(clock: clock, heartbeat: .seconds(60))
        let fired = LockedBox<[Duration]>([])
        // The first firing says a delivery came 30 s in: the next is 60 s after that, at 90 s.
        timers.arm("BTC", from: start) { now in
            fired.update { $0.append(now - start) }
            return fired.get().count == 1 ? start + .seconds(30) : now
        }
        clock.advance(by: .seconds(59))
        #expect(fired.get().isEmpty)
        clock.advance(by: .seconds(1))
        #expect(fired.get() == [.seconds(60)])
        clock.advance(by: .seconds(30))
        #expect(fired.get() == [.seconds(60), .seconds(90)])
        // Arming a key again replaces its timer: one waits.
        timers.arm("BTC", from: clock.now) { $0 }
        #expect(clock.pendingTimers == 1)
        timers.stop()
        #expect(clock.pendingTimers == 0)
        // Stopped: nothing is armed again.
        timers.arm("ETH", from: clock.now) { $0 }
        #expect(clock.pendingTimers == 0)
    }
}
