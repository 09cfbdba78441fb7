import ProviderABI

/// The Coinbase provider: spot prices from Coinbase's public API, over the host's HTTP.
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
}
