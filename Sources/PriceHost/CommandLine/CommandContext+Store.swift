import PriceHostCore
import PriceHostStore

/// Why a command has no quote store to work with (`history`, `watch --record`): the one line it prints, and
/// the status it exits with.
struct StoreUnavailable: Error, CustomStringConvertible, Sendable {
    var status: ExitStatus
    var description: String
}

extension CommandContext {
    /// The quote store `config` names (`store.url`), else the default one (`$XDG_STATE_HOME/pricehost/quotes.db`).
    /// - Parameter command: how the lines name what asked (`history`, `watch --record`).
    /// - Returns: `.failure` when the config turns the store off (a usage error: the command asks for what the config
    ///   refuses), or when there is no path for it (neither `XDG_STATE_HOME` nor `HOME` is absolute: a config error,
    ///   which `store.url` fixes).
    func storeSettings(config: Config, for command: String) -> Result<StoreSettings, StoreUnavailable> {
        if config.storeDisabled {
            return .failure(StoreUnavailable(status: .usage,
                description: "\(command): the quote store is off (\"store\": {\"enabled\": false} in \(config.path)); turn it on to keep and read quotes"))
        }
        guard let settings = config.storeSettings(environment: environment) else {
            return .failure(StoreUnavailable(status: .configOrPlugin,
                description: "\(command): the config sets no store.url, and neither XDG_STATE_HOME nor HOME is an absolute path to keep the quote store under"))
        }
        return .success(settings)
    }
}
