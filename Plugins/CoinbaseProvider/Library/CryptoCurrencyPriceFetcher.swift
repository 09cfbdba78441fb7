import FoundationEssentials
import ProviderABI

/// The one fetcher for every asset Coinbase lists: `GET
/// {baseURL}/v2/prices/{ASSET}-{CURRENCY}/spot` with a `CB-VERSION` header.
///
/// Registered three times by the Coinbase plugin: as the general fetcher
/// (`coinbase`, any asset) and, dedicated to one asset, as Bitcoin
/// (`coinbase/BTC`) and Ethereum (`coinbase/ETH`), the tutorials'
/// `BitcoinPriceFetcher` and `EthereumPriceFetcher` made one generic type.
public struct CryptoCurrencyPriceFetcher: PriceFetcher {
    /// The asset this instance is dedicated to, or `nil` for any.
    public let asset: String?
    /// The settings: base URL and API version.
    public let settings: CoinbaseSettings
    /// Where requests go: the host's HTTP service, or a simulation in tests.
    public let http: any HTTPClient
    /// The provider name quotes carry.
    public let provider: String

    /// Creates a fetcher.
    public init(asset: String?, settings: CoinbaseSettings, http: any HTTPClient, provider: String = "coinbase") {
        self.asset = asset
        self.settings = settings
        self.http = http
        self.provider = provider
    }

    /// The spot price of `request.pair`.
    /// - Throws: ``ProviderError`` from the host's HTTP service, or from ``CoinbaseResponse``.
    public func fetchQuote(for request: QuoteRequest) async throws -> Quote {
        if let asset, asset != request.asset {
            throw ProviderError(.invalidRequest, "this fetcher serves \(asset), not \(request.asset)")
        }
        let response = try await http.get(HTTPRequest(
            url: "\(settings.baseURL)/v2/prices/\(request.pair)/spot",
            headers: [HTTPHeader("CB-VERSION", settings.apiVersion), HTTPHeader("Accept", "application/json")]))
        return try CoinbaseResponse.quote(from: response, for: request, provider: provider)
    }
}
