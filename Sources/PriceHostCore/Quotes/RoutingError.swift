/// Why no route could be chosen for an asset. The command line decides what
/// each means to the user: a usage error (exit 2) for the first two, a config
/// or plugin error (exit 3) for the last.
package enum RoutingError: Error, Equatable, CustomStringConvertible {
    /// `--provider` names a provider no loaded plugin provides.
    case unknownProvider(String)
    /// Nothing names a provider for the asset: no `--provider`, no default, no asset entry.
    case noProvider(String)
    /// The config names a provider no plugin provides, or whose plugin failed to load.
    case config(ConfigError)

    package var description: String {
        switch self {
        case .unknownProvider(let message), .noProvider(let message): message
        case .config(let error): error.description
        }
    }
}
