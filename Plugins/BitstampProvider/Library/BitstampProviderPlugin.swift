import ProviderABI

/// The Bitstamp provider: last trade prices from Bitstamp's public ticker, over the host's HTTP.
public enum BitstampProviderPlugin: ProviderPlugin {
    /// The provider name, `bitstamp`.
    public static let name = "bitstamp"
    /// The plugin version.
    public static let version = "1.0.0"

    /// One fetcher for every pair.
    public static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        [FetcherRegistration(asset: nil, fetcher: makeFetcher(settings: try BitstampSettings(context.settings), http: context.http))]
    }

    /// Bitstamp's ticker for any pair: `GET {baseURL}/api/v2/ticker/{market}/`,
    /// the market from ``market(for:)``, read by ``BitstampResponse``.
    public static func makeFetcher(settings: BitstampSettings, http: any HTTPClient) -> HTTPQuoteFetcher {
        HTTPQuoteFetcher(http: http) { request in
            HTTPRequest(url: "\(settings.baseURL)/api/v2/ticker/\(market(for: request))/",
                        headers: [HTTPHeader("Accept", "application/json")])
        } read: { response, request in
            try BitstampResponse.quote(from: response, for: request, provider: name)
        }
    }

    /// Bitstamp's name for a pair's market, as its ticker URL and its feed's channels spell
    /// it: asset and currency in lower case, `btcusd` for BTC-USD.
    public static func market(for request: QuoteRequest) -> String {
        (request.asset + request.currency).lowercased()
    }
}
