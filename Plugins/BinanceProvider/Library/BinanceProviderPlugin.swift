import ProviderABI

/// The Binance provider: latest prices from Binance's public API, over the host's HTTP.
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
    /// ``BinanceSettings/symbol(for:)``, read by ``BinanceResponse``.
    public static func makeFetcher(settings: BinanceSettings, http: any HTTPClient) -> HTTPQuoteFetcher {
        HTTPQuoteFetcher(http: http) { request in
            HTTPRequest(url: "\(settings.baseURL)/api/v3/ticker/price?symbol=\(try settings.symbol(for: request))",
                        headers: [HTTPHeader("Accept", "application/json")])
        } read: { response, request in
            try BinanceResponse.quote(from: response, for: request, symbol: settings.symbol(for: request), provider: name)
        }
    }
}
