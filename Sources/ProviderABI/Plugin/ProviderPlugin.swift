/// A provider written in Swift. Conform a type to it and export it with
/// ``PluginExport``:
///
/// ```swift
/// import ProviderABI
///
/// enum MyProvider: ProviderPlugin {
///     static let name = "my-provider"
///     static let version = "1.0.0"
///     static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration] {
///         [FetcherRegistration(asset: nil, fetcher: MyFetcher())]
///     }
/// }
///
/// @_cdecl("pricehost_plugin_entry_v1")
/// public func pricehostPluginEntry(_ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
///     PluginExport.entry(MyProvider.self, host: host)
/// }
/// ```
public protocol ProviderPlugin {
    /// The provider's name: lower case letters, digits and '-', 1 to 32 characters.
    static var name: String { get }
    /// The plugin's version, shown by `pricehost providers`.
    static var version: String { get }
    /// Builds the fetchers once, when the host loads the plugin.
    ///
    /// - Throws: any error whose description says what is wrong (typically
    ///   ``ProviderError`` with ``ProviderError/Code/invalidSettings``); the
    ///   host then reports the plugin as failed with that line.
    static func makeFetchers(context: PluginContext) throws -> [FetcherRegistration]
    /// Describes the venue's WebSocket feed (ABI 1.3), once, when the host loads the
    /// plugin; `nil` (the default) when it has none. The host streams a provider only
    /// when it also has a general fetcher, which it polls while the feed is stale.
    ///
    /// - Throws: as ``makeFetchers(context:)``.
    static func makeStream(context: PluginContext) throws -> StreamFeed?
}

extension ProviderPlugin {
    /// No feed.
    public static func makeStream(context: PluginContext) throws -> StreamFeed? { nil }
}

/// One fetcher a Swift plugin offers.
public struct FetcherRegistration: Sendable {
    /// The asset this fetcher is dedicated to (registered as `provider/ASSET`),
    /// or `nil` for the provider's general fetcher (registered as `provider`).
    public var asset: String?
    /// The implementation.
    public var fetcher: any PriceFetcher

    /// Creates a registration.
    public init(asset: String?, fetcher: any PriceFetcher) {
        self.asset = asset
        self.fetcher = fetcher
    }
}
