import ProviderABI

/// The CoinGecko provider: aggregated prices from CoinGecko's simple price API, over the host's HTTP.
public enum CoinGeckoProviderPlugin: ProviderPlugin {
    /// The provider name, `coingecko`.
    public static let name = "coingecko"
    /// The plugin version.
    public static let version = "1.0.0"

    /// One fetcher for every asset with a CoinGecko id.
    public static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        [FetcherRegistration(asset: nil, fetcher: makeFetcher(settings: try CoinGeckoSettings(context.settings), http: context.http))]
    }

    /// CoinGecko's price for any asset with an id: `GET
    /// {baseURL}/api/v3/simple/price?ids=bitcoin&vs_currencies=usd&include_last_updated_at=true`,
    /// with the key as `x-cg-demo-api-key` when the settings have one, read by ``CoinGeckoResponse``.
    public static func makeFetcher(settings: CoinGeckoSettings, http: any HTTPClient) -> HTTPQuoteFetcher {
        HTTPQuoteFetcher(http: http) { request in
            let id = try settings.id(for: request)
            var headers = [HTTPHeader("Accept", "application/json")]
            if let apiKey = settings.apiKey { headers.append(HTTPHeader("x-cg-demo-api-key", apiKey)) }
            return HTTPRequest(url: "\(settings.baseURL)/api/v3/simple/price?ids=\(id)&vs_currencies=\(request.currency.lowercased())"
                                   + "&include_last_updated_at=true", headers: headers)
        } read: { response, request in
            try CoinGeckoResponse.quote(from: response, for: request, id: settings.id(for: request), provider: name)
        }
    }
}
