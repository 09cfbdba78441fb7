import Foundation
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

    /// A test clock whose first timer already due fires at once, inside `schedule`: as a system timer on
    /// another thread can fire, and arm the next, before `arm` has stored it.
    final class EagerClock: PriceClock {
        let base = TestClock()
        private let firedOnce = LockedBox(false)
        var now: ContinuousClock.Instant { base.now }
        var wallNow: Date { base.wallNow }
        func sleep(until deadline: ContinuousClock.Instant) async throws { try await base.sleep(until: deadline) }
        func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
            guard deadline <= base.now, !firedOnce.get() else { return base.schedule(at: deadline, action) }
            firedOnce.update { $0 = true }
            action()
            return ClockTimer {}
        }
    }

    @Test func aTimerThatFiresBeforeItsArmingIsStoredDoesNotCancelTheNext() {
        let clock = EagerClock()
        let timers = HeartbeatTimers<String>(clock: clock, heartbeat: .seconds(60))
        let fired = LockedBox(0)
        // Due at once: it fires inside schedule and arms the next, 60 s on; the first arm, storing its spent
        // timer afterwards, must not replace (and cancel) that next one.
        timers.arm("BTC", from: clock.now - .seconds(60)) { now in
            fired.update { $0 += 1 }
            return now
        }
        #expect(fired.get() == 1)
        #expect(clock.base.pendingTimers == 1)
        clock.base.advance(by: .seconds(60))
        #expect(fired.get() == 2)
        timers.stop()
    }
}
