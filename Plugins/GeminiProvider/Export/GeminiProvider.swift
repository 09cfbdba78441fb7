import GeminiProviderLibrary
import ProviderABI

/// The entry point the host looks up in libGeminiProvider.so.
@_cdecl("pricehost_plugin_entry_v1")
public func pricehostPluginEntry(_ host: UnsafeRawPointer?) -> UnsafeRawPointer? {
    PluginExport.entry(GeminiProviderPlugin.self, host: host)
}
