import ProviderABI

/// The Bitstamp provider: last trade prices from Bitstamp's public ticker, over the host's HTTP.
public enum BitstampProviderPlugin: ProviderPlugin {
    /// The provider name, `bitstamp`.
    public static let name = "bitstamp"
    /// The plugin version.
    public static let version = "1.0.0"

    /// One ``BitstampTickerFetcher`` for every pair.
    public static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        [FetcherRegistration(asset: nil, fetcher: BitstampTickerFetcher(settings: try BitstampSettings(context.settings), http: context.http))]
    }
}
