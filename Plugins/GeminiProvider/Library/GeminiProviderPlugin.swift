import ProviderABI

/// The Gemini provider: last trade prices from Gemini's public ticker, over the host's HTTP.
public enum GeminiProviderPlugin: ProviderPlugin {
    /// The provider name, `gemini`.
    public static let name = "gemini"
    /// The plugin version.
    public static let version = "1.0.0"

    /// One fetcher for every symbol.
    public static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        [FetcherRegistration(asset: nil, fetcher: makeFetcher(settings: try GeminiSettings(context.settings), http: context.http))]
    }

    /// Gemini's ticker for any symbol: `GET {baseURL}/v1/pubticker/{symbol}`,
    /// the symbol from ``symbol(for:)``, read by ``GeminiResponse``.
    public static func makeFetcher(settings: GeminiSettings, http: any HTTPClient) -> HTTPQuoteFetcher {
        HTTPQuoteFetcher(http: http) { request in
            HTTPRequest(url: "\(settings.baseURL)/v1/pubticker/\(symbol(for: request))",
                        headers: [HTTPHeader("Accept", "application/json")])
        } read: { response, request in
            try GeminiResponse.quote(from: response, for: request, provider: name)
        }
    }

    /// Gemini's symbol for a pair, as its ticker URL and its market data feed's URL spell
    /// it: asset and currency in lower case, `btcusd` for BTC-USD.
    public static func symbol(for request: QuoteRequest) -> String {
        (request.asset + request.currency).lowercased()
    }
}
