import FoundationEssentials
import ConcurrencyHelpers
import ProviderABI

/// A provider's fetcher with its answers kept for `cacheSeconds`, so a short
/// `watch` interval does not hit the source on every tick. Only successes
/// are kept; a failure is asked again next time.
final class CachingPriceFetcher: PriceFetcher {
    private let base: any PriceFetcher
    private let lifetime: TimeInterval
    private let now: @Sendable () -> Date
    private let entries = Lock<[QuoteRequest: (quote: Quote, storedAt: Date)]>([:])

    init(base: any PriceFetcher, lifetime: TimeInterval, now: @escaping @Sendable () -> Date = { Date() }) {
        self.base = base
        self.lifetime = lifetime
        self.now = now
    }

    package func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        let moment = now()
        if let entry = entries.withLock({ $0[request] }), moment.timeIntervalSince(entry.storedAt) < lifetime {
            return entry.quote
        }
        let quote = try await base.fetchQuote(for: request)
        entries.withLock { $0[request] = (quote, moment) }
        return quote
    }
}
