import ProviderABI

/// The Gemini provider's settings in `plugins.json` (`providers.gemini`):
/// `{"baseURL": "https://api.gemini.com"}`, optional.
public struct GeminiSettings: Sendable, Equatable {
    /// The API root, without a trailing slash.
    public var baseURL = "https://api.gemini.com"

    /// The defaults.
    public init() {}

    /// Reads the settings strictly.
    /// - Throws: ``ProviderError`` `.invalidSettings` naming the key.
    public init(_ settings: JSONCursor) throws {
        baseURL = try settings.onlyBaseURL(default: baseURL)
    }
}
