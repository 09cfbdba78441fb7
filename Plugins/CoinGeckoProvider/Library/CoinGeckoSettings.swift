import ProviderABI

/// The CoinGecko provider's settings in `plugins.json` (`providers.coingecko`),
/// all optional: `{"baseURL": "https://api.coingecko.com", "apiKey":
/// "${COINGECKO_API_KEY}", "ids": {"XYZ": "xyz-token"}}`.
public struct CoinGeckoSettings: Sendable, Equatable {
    /// The API root, without a trailing slash.
    public var baseURL = "https://api.coingecko.com"
    /// A demo API key, sent as `x-cg-demo-api-key`; never logged nor put in a message.
    public var apiKey: String?
    /// Asset codes to CoinGecko ids: ``CoinGeckoIDs/builtIn`` with the settings' `ids` over it.
    public var ids = CoinGeckoIDs.builtIn

    /// The defaults.
    public init() {}

    /// Reads the settings strictly.
    /// - Throws: ``ProviderError`` `.invalidSettings` naming the key (never the key's value for `apiKey`).
    public init(_ settings: JSONCursor) throws {
        do {
            try settings.rejectUnknownKeys(allowed: ["baseURL", "apiKey", "ids"])
            if let url = try settings.optionalMember("baseURL") {
                baseURL = try url.httpBaseURL(example: "https://api.coingecko.com")
            }
            if let key = try settings.optionalMember("apiKey") {
                let text = try key.string()
                guard !text.isEmpty, HTTPHeader("x-cg-demo-api-key", text).isSafe else {
                    throw key.error("expected the key as one line of text, e.g. \"${COINGECKO_API_KEY}\"; remove apiKey to go without")
                }
                apiKey = text
            }
            for (code, member) in try settings.optionalMember("ids")?.members() ?? [] {
                guard let asset = AssetCode.normalized(code) else { throw member.error("not an asset code (2 to 10 letters or digits)") }
                let id = try member.string()
                guard CoinGeckoIDs.isValid(id) else {
                    throw member.error("expected a CoinGecko id such as \"bitcoin\" (lower-case letters, digits, '-', '_' or '.')")
                }
                ids[asset] = id
            }
        } catch {
            throw ProviderError(.invalidSettings, "invalid settings: \(error)")
        }
    }

    /// The CoinGecko id of `request.asset`.
    /// - Throws: ``ProviderError`` `.notFound`, saying how to add one, when there is none.
    public func id(for request: QuoteRequest) throws -> String {
        guard let id = ids[request.asset] else {
            throw ProviderError(.notFound, "no CoinGecko id for \(request.asset); add one to providers.coingecko.ids, "
                + #"e.g. {"\#(request.asset)": "its-id"} (the id is in the coin's coingecko.com URL) (\#(request.pair))"#)
        }
        return id
    }
}
