import Foundation
import ConcurrencyHelpers
@testable import PriceHostCore
import ProviderABI
import Testing

/// `cacheSeconds` for `fetch` and `watch`: the same cache as `serve`'s
/// (``CoalescingPriceFetcher``), with nobody observing. A success is reused for
/// its lifetime, per pair; a failure never is.
struct CacheSecondsTests {
    /// Counts its calls; answers `amount`, or fails while `failing` is set.
    final class CountingFetcher: PriceFetcher {
        let calls = Lock(0)
        let failing = Lock(false)

        func fetchQuote(for request: QuoteRequest) async throws -> Quote {
            let call = calls.withLock { count -> Int in
                count += 1
                return count
            }
            if failing.withLock({ $0 }) { throw ProviderError(.unavailable, "down") }
            return Quote(asset: request.asset, currency: request.currency, amount: Decimal(call), provider: "counting",
                         timestamp: Date(timeIntervalSince1970: 0))
        }
    }

    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        let start = ContinuousClock.now
        let offset = Lock(Duration.zero)
        func now() -> ContinuousClock.Instant { start.advanced(by: offset.withLock { $0 }) }
        func advance(_ by: Duration) { offset.withLock { $0 += by } }
    }

    func cache(_ base: CountingFetcher, _ clock: ManualClock) -> CoalescingPriceFetcher {
        CoalescingPriceFetcher(provider: "counting", base: base, cacheSeconds: 10, now: clock.now)
    }

    let btc = QuoteRequest(asset: "BTC", currency: "USD")

    @Test func aSuccessIsReusedWithinItsLifetime() async throws {
        let base = CountingFetcher(), clock = ManualClock()
        let cache = cache(base, clock)
        #expect(try await cache.fetchQuote(for: btc).amount == 1)
        clock.advance(.milliseconds(9_900))
        #expect(try await cache.fetchQuote(for: btc).amount == 1)
        #expect(base.calls.withLock { $0 } == 1)
    }

    @Test func anExpiredAnswerIsAskedAgain() async throws {
        let base = CountingFetcher(), clock = ManualClock()
        let cache = cache(base, clock)
        _ = try await cache.fetchQuote(for: btc)
        clock.advance(.seconds(10))
        #expect(try await cache.fetchQuote(for: btc).amount == 2)
    }

    @Test func eachPairHasItsOwnEntry() async throws {
        let base = CountingFetcher()
        let cache = cache(base, ManualClock())
        _ = try await cache.fetchQuote(for: btc)
        #expect(try await cache.fetchQuote(for: QuoteRequest(asset: "BTC", currency: "EUR")).amount == 2)
        #expect(try await cache.fetchQuote(for: btc).amount == 1)
    }

    @Test func aFailureIsNotKept() async throws {
        let base = CountingFetcher()
        let cache = cache(base, ManualClock())
        base.failing.withLock { $0 = true }
        await #expect(throws: ProviderError(.unavailable, "down")) { try await cache.fetchQuote(for: btc) }
        base.failing.withLock { $0 = false }
        #expect(try await cache.fetchQuote(for: btc).amount == 2)
    }
}
