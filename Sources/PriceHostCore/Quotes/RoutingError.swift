/// Why no route could be chosen for an asset. The command line decides what
/// each means to the user: a usage error (exit 2) for the first two, a config
/// or plugin error (exit 3) for the last.
package enum RoutingError: Error, Equatable, CustomStringConvertible {
    /// The caller named `provider` (`--provider`, or `serve`'s provider parameter), and no
    /// loaded plugin provides it; `loaded` says what is loaded.
    case unknownProvider(provider: String, loaded: String)
    /// Nothing names a provider for the asset: no `--provider`, no default, no asset entry.
    case noProvider(String)
    /// The config names a provider no plugin provides, or whose plugin failed to load.
    case config(ConfigError)

    package var description: String { message(providersNamedBy: nil) }

    /// What to tell the user, naming where an unknown provider was asked for: the caller
    /// knows (`--provider` on the command line, `the provider parameter` in `serve`).
    package func message(providersNamedBy source: String?) -> String {
        switch self {
        case .unknownProvider(let provider, let loaded):
            "unknown provider '\(provider)'" + (source.map { " (from \($0))" } ?? "") + "; \(loaded)"
        case .noProvider(let message): message
        case .config(let error): error.description
        }
    }
}
