import ProviderABI

/// A config that loads only the Coinbase plugin (by absolute path, from the bin
/// directory) and points it at a loopback server; with `store`, that `store` section (JSON) too.
enum CoinbaseConfig {
    static func text(plugin: String, baseURL: String, store: String? = nil) -> String {
        """
        {"plugins": [\(JSONValue.quoted(plugin))],
         "providers": {"coinbase": {"baseURL": \(JSONValue.quoted(baseURL)), "maxConcurrentRequests": 20}},
         "defaults": {"provider": "coinbase"}\(store.map { ",\n \"store\": " + $0 } ?? "")}

        """
    }
}
