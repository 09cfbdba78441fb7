import FoundationEssentials
import PriceHostCore

/// The system's clocks, but a wall time that stays where it was set: `__store-bench fill` writes a store that
/// ends at a given time, and the writer's prune must measure the retention from that time.
struct FixedWallClock: PriceClock {
    let wallNow: Date
    private let system = SystemClock()

    init(wallNow: Date) {
        self.wallNow = wallNow
    }

    var now: ContinuousClock.Instant { system.now }

    func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await system.sleep(until: deadline)
    }

    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
        system.schedule(at: deadline, action)
    }
}
