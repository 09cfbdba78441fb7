import ProviderABI

/// The Bitstamp provider: last trade prices from Bitstamp's public ticker, over the host's HTTP,
/// and from its live trades feed.
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

    /// Bitstamp's live trades feed, ``makeStream()``; it takes no settings.
    public static func makeStream(context: PluginContext) throws -> StreamFeed? {
        makeStream()
    }

    /// `wss://ws.bitstamp.net`, read by ``BitstampStreamReader``, within Bitstamp's documented
    /// limits: 1024 channels a connection (one a pair; a 1025th closes the connection without
    /// a word) and 90 days a connection. Bitstamp publishes no limit on connection attempts,
    /// so the host's backoff alone paces them. A pair may trade rarely, so the host sends
    /// ``BitstampStreamReader/heartbeat`` every 4 seconds, under the host's default
    /// `staleAfterSeconds` of 5, and Bitstamp's answer keeps a connection of quiet pairs
    /// from looking silent.
    public static func makeStream() -> StreamFeed {
        StreamFeed(url: "wss://ws.bitstamp.net", reader: BitstampStreamReader(), maxPairsPerConnection: 1024,
                   maximumConnectionLifetime: .seconds(90 * 86_400),
                   ping: StreamPing(message: BitstampStreamReader.heartbeat, interval: .seconds(4)))
    }

    /// Bitstamp's name for a pair's market, as its ticker URL and its feed's channels spell
    /// it: asset and currency in lower case, `btcusd` for BTC-USD.
    public static func market(for request: QuoteRequest) -> String {
        (request.asset + request.currency).lowercased()
    }
}
