import ProviderABI

/// The Coinbase provider: spot prices from Coinbase's public API, over the host's HTTP,
/// and the last trades from Coinbase Exchange's WebSocket feed.
public enum CoinbaseProviderPlugin: ProviderPlugin {
    /// The provider name, `coinbase`.
    public static let name = "coinbase"
    /// The plugin version.
    public static let version = "1.0.0"
    /// The assets with a fetcher of their own; every other asset goes to the general one.
    public static let namedAssets = ["BTC", "ETH"]

    /// One ``CryptoCurrencyPriceFetcher`` for any asset, and one each for Bitcoin and Ethereum.
    public static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        let settings = try CoinbaseSettings(context.settings)
        return makeFetchers(settings: settings, http: context.http)
    }

    /// The registrations for `settings` over `http`; also what tests wire into a container.
    public static func makeFetchers(settings: CoinbaseSettings, http: any HTTPClient) -> [FetcherRegistration] {
        ([nil] + namedAssets).map { asset in
            FetcherRegistration(asset: asset, fetcher: CryptoCurrencyPriceFetcher(asset: asset, settings: settings, http: http, provider: name))
        }
    }

    /// Coinbase Exchange's feed, ``makeStream()``; it takes no settings.
    public static func makeStream(context: PluginContext) throws -> StreamFeed? {
        makeStream()
    }

    /// `wss://ws-feed.exchange.coinbase.com`, read by ``CoinbaseStreamReader``: every pair
    /// of a connection in one subscription (Coinbase documents no limit of products a
    /// connection). Coinbase limits connection requests to 8 a second from one IP address
    /// (20 in bursts): the host makes at most 6, leaving room for other clients of the address.
    /// The feed's prices are the Exchange's trades; the REST fallback asks the retail spot
    /// price (`api.coinbase.com/v2/prices`), a close but separate figure.
    public static func makeStream() -> StreamFeed {
        StreamFeed(url: "wss://ws-feed.exchange.coinbase.com", reader: CoinbaseStreamReader(),
                   connectLimit: StreamConnectLimit(attempts: 6, per: .seconds(1)))
    }
}
