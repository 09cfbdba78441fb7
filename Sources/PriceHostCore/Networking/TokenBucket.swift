import FoundationEssentials
import ConcurrencyHelpers

/// A provider's request budget: `requestsPerSecond` on average, at most
/// `burst` at once. Every HTTP attempt for the provider takes a token first,
/// waiting when there is none, so many assets at once stay within the limit.
package final class TokenBucket: Sendable {
    private struct State {
        var tokens: Double
        var refilled: ContinuousClock.Instant
        var waits = 0
    }

    /// Tokens added per second.
    package let rate: Double
    /// The most tokens kept.
    package let burst: Double
    private let state: Lock<State>

    /// Creates a full bucket.
    package init(requestsPerSecond: Double, burst: Int) {
        rate = requestsPerSecond
        self.burst = Double(burst)
        state = Lock(State(tokens: Double(burst), refilled: .now))
    }

    /// How many takes had to wait for a token (`serve`'s rate-limit metric).
    package var waitCount: Int { state.withLock { $0.waits } }

    /// Counts a wait for a token taken elsewhere (the fleet's bucket in Redis).
    package func countWait() { state.withLock { $0.waits += 1 } }

    /// Takes one token, waiting until one is there. Tokens are reserved in
    /// arrival order, so waiters are served first come, first served.
    package func take() async throws {
        let wait: Duration = state.withLock { state in
            let now = ContinuousClock.now
            let elapsed = state.refilled.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            state.tokens = min(burst, state.tokens + seconds * rate)
            state.refilled = now
            state.tokens -= 1
            if state.tokens < 0 { state.waits += 1 }
            return state.tokens >= 0 ? .zero : .milliseconds(Int((-state.tokens / rate * 1000).rounded(.up)))
        }
        if wait > .zero { try await Task.sleep(for: wait) }
    }
}
