import ProviderABI

/// A config that loads only the Coinbase plugin (by absolute path, from the bin
/// directory) and points it at a loopback server.
enum CoinbaseConfig {
    static func text(plugin: String, baseURL: String) -> String {
        """
        {"plugins": [\(JSONValue.quoted(plugin))],
         "providers": {"coinbase": {"baseURL": \(JSONValue.quoted(baseURL)), "maxConcurrentRequests": 20}},
         "defaults": {"provider": "coinbase"}}

        """
    }
}
