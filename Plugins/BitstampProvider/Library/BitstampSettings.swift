import ProviderABI

/// The Bitstamp provider's settings in `plugins.json` (`providers.bitstamp`):
/// `{"baseURL": "https://www.bitstamp.net"}`, optional.
public struct BitstampSettings: Sendable, Equatable {
    /// The API root, without a trailing slash.
    public var baseURL = "https://www.bitstamp.net"

    /// The defaults.
    public init() {}

    /// Reads the settings strictly.
    /// - Throws: ``ProviderError`` `.invalidSettings` naming the key.
    public init(_ settings: JSONCursor) throws {
        baseURL = try settings.onlyBaseURL(default: baseURL)
    }
}
