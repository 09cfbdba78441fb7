import CoinGeckoProviderLibrary
import ProviderABI

/// The entry point the host looks up in libCoinGeckoProvider.so.
@_cdecl("pricehost_plugin_entry_v1")
public func pricehostPluginEntry(_ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    PluginExport.entry(CoinGeckoProviderPlugin.self, host: host)
}
