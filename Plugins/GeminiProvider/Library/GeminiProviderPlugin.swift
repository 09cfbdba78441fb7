import ProviderABI

/// The Gemini provider: last trade prices from Gemini's public ticker, over the host's HTTP,
/// and from its market data feed.
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

    /// Gemini's market data feed, ``makeStream()``; it takes no settings.
    public static func makeStream(context: PluginContext) throws -> StreamFeed? {
        makeStream()
    }

    /// `wss://api.gemini.com/v1/marketdata`, one connection a pair, each at its own URL
    /// (``GeminiStreamReader/connectionURL(base:pairs:)``). Gemini publishes no limit of its
    /// own for WebSocket connections; its public API allows 120 requests a minute from one
    /// address and asks for no more than one a second, and the REST fallback draws on the
    /// same allowance: the host opens at most 60 connections a minute. Gemini sends a heartbeat
    /// every 5 s (`heartbeat=true`), as slow as the host's default staleness: said, so a quiet pair does not flap.
    public static func makeStream() -> StreamFeed {
        StreamFeed(url: "wss://api.gemini.com/v1/marketdata", reader: GeminiStreamReader(), maxPairsPerConnection: 1,
                   connectLimit: StreamConnectLimit(attempts: 60, per: .seconds(60)), heartbeatInterval: .seconds(5))
    }

    /// Gemini's symbol for a pair, as its ticker URL and its market data feed's URL spell
    /// it: asset and currency in lower case, `btcusd` for BTC-USD.
    public static func symbol(for request: QuoteRequest) -> String {
        (request.asset + request.currency).lowercased()
    }
}
