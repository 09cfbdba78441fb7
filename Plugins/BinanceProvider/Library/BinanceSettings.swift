import ProviderABI

/// The Binance provider's settings in `plugins.json` (`providers.binance`):
/// `{"baseURL": "https://api.binance.com", "currencyAliases": {"USD": "USDT"}, "bidAsk": false}`, all optional.
public struct BinanceSettings: Sendable, Equatable {
    /// The API root, without a trailing slash.
    public var baseURL = "https://api.binance.com"
    /// The symbol suffix that stands for a currency, upper case: `["USD": "USDT"]`
    /// asks `BTCUSDT` for BTC-USD. Empty by default: a stablecoin is not a dollar
    /// unless the config says so.
    public var currencyAliases: [String: String] = [:]
    /// Whether a fetch also asks `/api/v3/ticker/bookTicker` for the best bid and ask, beside
    /// `/api/v3/ticker/price` for the last price: two requests a quote instead of one. `false` by
    /// default. The feed (`@ticker`) carries them either way.
    public var bidAsk = false

    /// The defaults.
    public init() {}

    /// Reads the settings strictly.
    /// - Throws: ``ProviderError`` `.invalidSettings` naming the key.
    public init(_ settings: JSONCursor) throws {
        do {
            try settings.rejectUnknownKeys(allowed: ["baseURL", "currencyAliases", "bidAsk"])
            if let url = try settings.optionalMember("baseURL") {
                baseURL = try url.httpBaseURL(example: "https://api.binance.com")
            }
            if let flag = try settings.optionalMember("bidAsk") {
                bidAsk = try flag.bool()
            }
            for (key, member) in try settings.optionalMember("currencyAliases")?.members() ?? [] {
                guard let currency = AssetCode.normalized(key) else {
                    throw member.error("not a currency code (2 to 10 letters or digits)")
                }
                guard let suffix = AssetCode.normalized(try member.string()) else {
                    throw member.error("expected a symbol suffix such as \"USDT\" (2 to 10 letters or digits)")
                }
                currencyAliases[currency] = suffix
            }
        } catch {
            throw ProviderError(.invalidSettings, "invalid settings: \(error)")
        }
    }

    /// The Binance symbol for `request`: the asset, then the currency's alias or the currency itself (`BTCEUR`).
    /// - Throws: ``ProviderError`` `.notFound` for USD with no alias: Binance has no US dollar pairs.
    public func symbol(for request: QuoteRequest) throws -> String {
        if let suffix = currencyAliases[request.currency] { return request.asset + suffix }
        guard request.currency != "USD" else {
            throw ProviderError(.notFound, "Binance quotes \(request.asset) in stablecoins, not USD; to take one as USD, "
                + #"set providers.binance.currencyAliases, e.g. {"USD": "USDT"} (\#(request.pair))"#)
        }
        return request.asset + request.currency
    }
}
