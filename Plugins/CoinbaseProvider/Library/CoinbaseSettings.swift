import ProviderABI

/// The Coinbase provider's settings in `plugins.json` (`providers.coinbase`).
///
/// `{"baseURL": "https://api.coinbase.com", "apiVersion": "2024-01-01"}`; both
/// optional. The host's own keys (`timeoutSeconds`, `maxAttempts`, …) are
/// read by the host and never reach the plugin.
public struct CoinbaseSettings: Sendable, Equatable {
    /// The API root, without a trailing slash.
    public var baseURL = "https://api.coinbase.com"
    /// Sent as the `CB-VERSION` header.
    public var apiVersion = "2024-01-01"

    /// The defaults.
    public init() {}

    /// Reads the settings strictly.
    /// - Throws: ``ProviderError`` `.invalidSettings` naming the key.
    public init(_ settings: JSONCursor) throws {
        do {
            try settings.rejectUnknownKeys(allowed: ["baseURL", "apiVersion"])
            if let url = try settings.optionalMember("baseURL") {
                baseURL = try url.httpBaseURL(example: "https://api.coinbase.com")
            }
            if let version = try settings.optionalMember("apiVersion") {
                let text = try version.string()
                guard !text.isEmpty, HTTPHeader("CB-VERSION", text).isSafe else { throw version.error("must be a date such as 2024-01-01") }
                apiVersion = text
            }
        } catch let error as JSONShapeError {
            throw ProviderError(.invalidSettings, "invalid settings: \(error)")
        }
    }
}
