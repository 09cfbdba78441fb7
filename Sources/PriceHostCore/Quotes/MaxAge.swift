import FoundationEssentials
import ProviderABI

/// A client's own limit on a quote's age, on top of the config's `maxAgeSeconds`: `fetch --max-age 30s`,
/// `watch --max-age`, serve's `?maxAgeSeconds=30`. A quote older than it, strictly and to the millisecond
/// (the venue's time to now), is not given as a price; `staleQuotes: "warn"` does not let it through.
package struct MaxAge: Sendable, Equatable {
    /// The limit.
    package var milliseconds: Int
    /// How the refusal names it: `--max-age` or `maxAgeSeconds`.
    package var name: String

    package init(milliseconds: Int, name: String) {
        self.milliseconds = milliseconds
        self.name = name
    }

    /// Why `quote` is refused at `now`, or `nil` when it is not older than the limit.
    func refusal(of quote: Quote, from provider: String, at now: Date) -> QuoteFailure? {
        let age = quote.ageMilliseconds(at: now)
        guard age > Int64(milliseconds) else { return nil }
        let request = QuoteRequest(asset: quote.asset, currency: quote.currency)
        let message = "quote for \(request.pair) is \(Durations.seconds(.milliseconds(age))) s old "
            + "(from \(ISO8601Timestamp.format(quote.timestamp))); \(name) is \(Durations.seconds(.milliseconds(milliseconds))) s"
        var failure = QuoteFailure(provider: provider, request: request, code: .invalidResponse, message: message)
        failure.exclusion = "stale: \(Durations.seconds(.milliseconds(age))) s old, \(name) \(Durations.seconds(.milliseconds(milliseconds)))"
        failure.ageMilliseconds = age
        return failure
    }
}
