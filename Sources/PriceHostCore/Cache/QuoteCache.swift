import ProviderABI

/// A fetcher that keeps quotes and can say, without waiting, which one it would answer now
/// (``CoalescingPriceFetcher``): `serve` answers a cached quote on its event loop, with no task.
package protocol QuoteCache: Sendable {
    /// The quote kept for `request` that ``PriceFetcher/fetchQuote(for:)`` would answer now, if one is
    /// fresh; nothing is counted (see ``countCacheHit()``).
    func cachedQuote(for request: QuoteRequest) -> Quote?
    /// Counts one answer from the cache, as ``PriceFetcher/fetchQuote(for:)`` counts its own.
    func countCacheHit()
}
