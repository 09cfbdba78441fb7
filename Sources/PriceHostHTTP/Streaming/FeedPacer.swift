import ConcurrencyHelpers
import Glibc
import PriceHostCore

/// When a feed may try to connect: jittered exponential backoff after failures, and
/// never more attempts than the venue allows (``PluginStream/connectLimit``), across
/// all of the provider's connections.
final class FeedPacer: Sendable {
    /// The first retry's delay.
    static let firstDelay: Duration = .milliseconds(500)
    /// The longest delay.
    static let longestDelay: Duration = .seconds(30)

    private let limit: (attempts: Int, window: Duration)?
    private let attempts = Lock<[ContinuousClock.Instant]>([])
    private let clock: any PriceClock

    init(limit: (attempts: Int, window: Duration)?, clock: any PriceClock = SystemClock()) {
        self.limit = limit
        self.clock = clock
    }

    /// The wait before retry number `failures` (1 for the first): 0.5 s doubling to 30 s,
    /// each taken at random from its upper three quarters, so that many clients spread out.
    static func backoff(failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        let doubled = firstDelay * (1 << min(failures - 1, 10))
        let capped = min(doubled, longestDelay)
        return capped * Double.random(in: 0.75...1.0)
    }

    /// Waits until the venue's limit allows another attempt, then counts it.
    func takeTurn() async {
        guard let limit else { return }
        while !Task.isCancelled {
            let now = clock.now
            let wait: Duration? = attempts.withLock { attempts in
                attempts.removeAll { $0 + limit.window <= now }
                guard attempts.count >= limit.attempts, let oldest = attempts.first else {
                    attempts.append(now)
                    return nil
                }
                return oldest + limit.window - now
            }
            guard let wait else { return }
            try? await clock.sleep(for: wait)
        }
    }
}
