import ProviderABI

/// A plugin that loaded: its descriptor's facts and its fetchers.
package struct LoadedPlugin: Sendable {
    /// The file, absolute and with links resolved.
    package var path: String
    /// The provider name the plugin declared.
    package var name: String
    /// The plugin's version text.
    package var version: String
    /// The ABI version the plugin was built for, e.g. `1.0`.
    package var abiVersion: String
    /// The fetchers, general (`asset == nil`) first, then by asset.
    package var fetchers: [PluginFetcher]
    /// The file's SHA-256, when it was pinned or hashes were asked for.
    package var sha256: String?
    /// The venue's feed (ABI 1.3), when the plugin describes one.
    package var stream: PluginStream?

    /// The container name of each fetcher: `provider` or `provider/ASSET`.
    package var fetcherNames: [String] { fetchers.map(\.registrationName) }
}

/// One fetcher of a loaded plugin, ready to register into the container.
package struct PluginFetcher: Sendable {
    /// The provider name.
    package var provider: String
    /// The asset it is dedicated to, or `nil` for the general fetcher.
    package var asset: String?
    /// The host-side adapter that calls across the C boundary.
    package var fetcher: any PriceFetcher

    /// `provider` or `provider/ASSET`.
    package var registrationName: String {
        asset.map { "\(provider)/\($0)" } ?? provider
    }
}
