import ProviderABI

/// Gemini's ticker for any symbol: `GET {baseURL}/v1/pubticker/{symbol}`, the
/// symbol in lower case (`btcusd`).
public struct GeminiTickerFetcher: PriceFetcher {
    /// The settings.
    public let settings: GeminiSettings
    /// Where requests go: the host's HTTP service, or a simulation in tests.
    public let http: any HTTPClient
    /// The provider name quotes carry.
    public let provider: String

    /// Creates a fetcher.
    public init(settings: GeminiSettings, http: any HTTPClient, provider: String = GeminiProviderPlugin.name) {
        self.settings = settings
        self.http = http
        self.provider = provider
    }

    /// The URL of `request`'s ticker.
    public func url(for request: QuoteRequest) -> String {
        "\(settings.baseURL)/v1/pubticker/\((request.asset + request.currency).lowercased())"
    }

    /// The last trade price of `request.pair`.
    /// - Throws: ``ProviderError`` from the host's HTTP service, or from ``GeminiResponse``.
    public func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        let response = try await http.get(HTTPRequest(url: url(for: request), headers: [HTTPHeader("Accept", "application/json")]))
        return try GeminiResponse.quote(from: response, for: request, provider: provider)
    }
}
