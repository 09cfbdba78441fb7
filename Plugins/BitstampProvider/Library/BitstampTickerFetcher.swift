import ProviderABI

/// Bitstamp's ticker for any pair: `GET {baseURL}/api/v2/ticker/{pair}/`, the
/// pair in lower case (`btcusd`).
public struct BitstampTickerFetcher: PriceFetcher {
    /// The settings.
    public let settings: BitstampSettings
    /// Where requests go: the host's HTTP service, or a simulation in tests.
    public let http: any HTTPClient
    /// The provider name quotes carry.
    public let provider: String

    /// Creates a fetcher.
    public init(settings: BitstampSettings, http: any HTTPClient, provider: String = BitstampProviderPlugin.name) {
        self.settings = settings
        self.http = http
        self.provider = provider
    }

    /// The URL of `request`'s ticker.
    public func url(for request: QuoteRequest) -> String {
        "\(settings.baseURL)/api/v2/ticker/\((request.asset + request.currency).lowercased())/"
    }

    /// The last trade price of `request.pair`.
    /// - Throws: ``ProviderError`` from the host's HTTP service, or from ``BitstampResponse``.
    public func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        let response = try await http.get(HTTPRequest(url: url(for: request), headers: [HTTPHeader("Accept", "application/json")]))
        return try BitstampResponse.quote(from: response, for: request, provider: provider)
    }
}
