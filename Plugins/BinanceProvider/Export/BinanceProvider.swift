import BinanceProviderLibrary
import ProviderABI

/// The entry point the host looks up in libBinanceProvider.so.
@_cdecl("pricehost_plugin_entry_v1")
public func pricehostPluginEntry(_ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    PluginExport.entry(BinanceProviderPlugin.self, host: host)
}
