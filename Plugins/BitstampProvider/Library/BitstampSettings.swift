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
        do {
            try settings.rejectUnknownKeys(allowed: ["baseURL"])
            if let url = try settings.optionalMember("baseURL") {
                baseURL = try url.httpBaseURL(example: "https://www.bitstamp.net")
            }
        } catch {
            // Typed: every throw above is a JSONShapeError.
            throw ProviderError(.invalidSettings, "invalid settings: \(error)")
        }
    }
}
