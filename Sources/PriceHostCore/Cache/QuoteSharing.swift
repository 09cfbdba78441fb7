import ProviderABI

/// A place quotes can be shared across instances: the fleet's cache and its
/// fleet-wide coalescing. The domain asks for it through this protocol; the
/// service's Redis-backed `SharedQuotes` implements it, so nothing here knows Redis.
package protocol QuoteSharing: Sendable {
    /// The quote for `request` from the fleet, or from `fetch` (upstream) when this
    /// instance is the one to fetch, or when the fleet cannot help.
    /// - Parameters:
    ///   - lifetime: `cacheSeconds`: how long a fetched quote is kept for the fleet.
    ///   - waitLimit: the longest this instance waits for another's fetch before fetching itself.
    func quote(for request: QuoteRequest, provider: String, lifetime: Duration, waitLimit: Duration,
               fetch: @Sendable () async -> Result<Quote, any Error>) async -> SharedQuoteOutcome
}

/// What a fleet fetch ended with.
package struct SharedQuoteOutcome: Sendable {
    /// The quote, or why there is none.
    package var result: Result<Quote, any Error>
    /// How long the instance may keep the quote: what is left of the value's life in the fleet.
    package var keep: Duration

    package init(result: Result<Quote, any Error>, keep: Duration) {
        self.result = result
        self.keep = keep
    }
}
