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

    /// Bitstamp's ticker for any pair: `GET {baseURL}/api/v2/ticker/{pair}/`,
    /// the pair in lower case (`btcusd`), read by ``BitstampResponse``.
    public static func makeFetcher(settings: BitstampSettings, http: any HTTPClient) -> HTTPQuoteFetcher {
        HTTPQuoteFetcher(http: http) { request in
            HTTPRequest(url: "\(settings.baseURL)/api/v2/ticker/\((request.asset + request.currency).lowercased())/",
                        headers: [HTTPHeader("Accept", "application/json")])
        } read: { response, request in
            try BitstampResponse.quote(from: response, for: request, provider: name)
        }
    }
}
