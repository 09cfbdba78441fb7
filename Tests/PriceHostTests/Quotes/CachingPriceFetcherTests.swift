import Foundation
import ConcurrencyHelpers
@testable import PriceHost
@testable import PriceHostCore
import ProviderABI
import Testing

/// `cacheSeconds`: a success is reused for its lifetime, per pair; a failure never is.
struct CachingPriceFetcherTests {
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
        let seconds = Lock(1_000_000.0)
        func now() -> Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    let btc = QuoteRequest(asset: "BTC", currency: "USD")

    @Test func aSuccessIsReusedWithinItsLifetime() async throws {
        let base = CountingFetcher(), clock = ManualClock()
        let cache = CachingPriceFetcher(base: base, lifetime: 10, now: clock.now)
        #expect(try await cache.fetchQuote(for: btc).amount == 1)
        clock.advance(9.9)
        #expect(try await cache.fetchQuote(for: btc).amount == 1)
        #expect(base.calls.withLock { $0 } == 1)
    }

    @Test func anExpiredAnswerIsAskedAgain() async throws {
        let base = CountingFetcher(), clock = ManualClock()
        let cache = CachingPriceFetcher(base: base, lifetime: 10, now: clock.now)
        _ = try await cache.fetchQuote(for: btc)
        clock.advance(10)
        #expect(try await cache.fetchQuote(for: btc).amount == 2)
    }

    @Test func eachPairHasItsOwnEntry() async throws {
        let base = CountingFetcher()
        let cache = CachingPriceFetcher(base: base, lifetime: 10, now: ManualClock().now)
        _ = try await cache.fetchQuote(for: btc)
        #expect(try await cache.fetchQuote(for: QuoteRequest(asset: "BTC", currency: "EUR")).amount == 2)
        #expect(try await cache.fetchQuote(for: btc).amount == 1)
    }

    @Test func aFailureIsNotKept() async throws {
        let base = CountingFetcher()
        let cache = CachingPriceFetcher(base: base, lifetime: 10, now: ManualClock().now)
        base.failing.withLock { $0 = true }
        await #expect(throws: ProviderError(.unavailable, "down")) { try await cache.fetchQuote(for: btc) }
        base.failing.withLock { $0 = false }
        #expect(try await cache.fetchQuote(for: btc).amount == 2)
    }
}
