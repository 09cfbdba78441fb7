import ProviderABI

/// The Gemini provider: last trade prices from Gemini's public ticker, over the host's HTTP.
public enum GeminiProviderPlugin: ProviderPlugin {
    /// The provider name, `gemini`.
    public static let name = "gemini"
    /// The plugin version.
    public static let version = "1.0.0"

    /// One ``GeminiTickerFetcher`` for every symbol.
    public static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
        [FetcherRegistration(asset: nil, fetcher: GeminiTickerFetcher(settings: try GeminiSettings(context.settings), http: context.http))]
    }
}
