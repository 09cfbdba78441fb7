import ProviderABI

/// The Binance provider: latest prices from Binance's public API, over the host's HTTP,
/// and from its ticker streams.
///
/// Binance quotes crypto in stablecoins (`BTCUSDT`), not in US dollars: `USD`
/// is answered only through `currencyAliases` (``BinanceSettings``).
public enum BinanceProviderPlugin: ProviderPlugin {
    /// The provider name, `binance`.
    public static let name = "binance"
    /// The plugin version.
    public static let version = "1.0.0"

    /// One fetcher for every symbol.
    public static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        [FetcherRegistration(asset: nil, fetcher: makeFetcher(settings: try BinanceSettings(context.settings), http: context.http))]
    }

    /// Binance's latest price for any symbol: `GET
    /// {baseURL}/api/v3/ticker/price?symbol=BTCUSDT`, the symbol from
    /// ``BinanceSettings/symbol(for:)``, read by ``BinanceResponse``; with
    /// ``BinanceSettings/bidAsk``, a ``BinanceBookFetcher`` that asks the book's best bid and ask beside it.
    public static func makeFetcher(settings: BinanceSettings, http: any HTTPClient) -> any PriceFetcher {
        let price = HTTPQuoteFetcher(http: http) { request in
            HTTPRequest(url: "\(settings.baseURL)/api/v3/ticker/price?symbol=\(try settings.symbol(for: request))",
                        headers: [HTTPHeader("Accept", "application/json")])
        } read: { response, request in
            try BinanceResponse.quote(from: response, for: request, symbol: settings.symbol(for: request), provider: name)
        }
        return settings.bidAsk ? BinanceBookFetcher(price: price, settings: settings) : price
    }

    /// Binance's ticker streams, ``makeStream(settings:)``, with the aliases of the settings.
    /// - Throws: ``ProviderError`` `.invalidSettings`, as ``makeFetchers(context:)``.
    public static func makeStream(context: PluginContext) throws -> StreamFeed? {
        makeStream(settings: try BinanceSettings(context.settings))
    }

    /// `wss://stream.binance.com:9443/ws`, read by ``BinanceStreamReader``, within Binance's
    /// documented limits: 1024 streams a connection (one a pair); 300 connection attempts in
    /// 5 minutes from one IP address, of which the host makes at most 250, leaving room for
    /// other clients of the address; a connection lasts 24 hours, so the host hands over to
    /// a new one before. (Binance.US has its own feed: set `streamURL` to
    /// `wss://stream.binance.us:9443/ws` beside its `baseURL`.)
    public static func makeStream(settings: BinanceSettings) -> StreamFeed {
        StreamFeed(url: "wss://stream.binance.com:9443/ws", reader: BinanceStreamReader(settings: settings),
                   maxPairsPerConnection: 1024, connectLimit: StreamConnectLimit(attempts: 250, per: .seconds(300)),
                   maximumConnectionLifetime: .seconds(86_400))
    }
}
