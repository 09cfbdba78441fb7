/// Something that answers "what is one `asset` worth in `currency`?".
///
/// Plugins implement it; the host resolves implementations by name from its
/// container and calls them from any task, concurrently.
public protocol PriceFetcher: Sendable {
    /// Fetches one quote.
    ///
    /// - Throws: ``ProviderError`` (or any error, whose description is shown
    ///   to the user) when the quote cannot be had.
    func fetchQuote(for request: QuoteRequest) async throws -> Quote
}

/// The question a ``PriceFetcher`` answers.
public struct QuoteRequest: Sendable, Hashable {
    /// The asset code, upper case, e.g. `BTC`.
    public var asset: String
    /// The quote currency code, upper case, e.g. `USD`.
    public var currency: String

    /// Creates a request; codes are taken as given (the host validates them).
    public init(asset: String, currency: String) {
        self.asset = asset
        self.currency = currency
    }

    /// `ASSET-CURRENCY`, the pair as Coinbase and the file provider spell it.
    public var pair: String { "\(asset)-\(currency)" }
}
