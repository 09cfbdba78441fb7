import CProviderABI

/// What a Swift plugin learns from the host when it loads.
public struct PluginContext: Sendable {
    /// The provider's settings from `plugins.json`, `${VAR}` already replaced; an empty object when none.
    public let settings: JSONCursor
    /// The directory of the config file; relative paths in settings are relative to it.
    public let configDirectory: String
    let host: HostServices

    init(settings: JSONCursor, configDirectory: String, host: HostServices) {
        self.settings = settings
        self.configDirectory = configDirectory
        self.host = host
    }

    /// The host's HTTP service: its timeouts, retries, size cap and user agent,
    /// as configured for this provider. Throws `unavailable` in a 1.0 host.
    public var http: any HTTPClient { HostHTTPClient(host: host) }

    /// Writes one line to the host's log (stderr); safe from any thread.
    public func log(_ level: LogLevel, _ message: String) {
        host.log(level, message)
    }

    /// `path` made absolute against ``configDirectory`` when it is relative.
    public func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return configDirectory + "/" + path
    }

    /// A log line's severity.
    public enum LogLevel: Sendable {
        /// Detail for whoever debugs the plugin; shown only with `PRICEHOST_LOG=debug`.
        case debug
        /// Something worth knowing that needs no action.
        case info
        /// Something is wrong but the plugin carries on (shown by default).
        case warning
        /// Something failed. During the entry call, the last warning or error is the reason the host reports when the plugin declines to load.
        case error

        var cValue: ph_log_level {
            switch self {
            case .debug: PH_LOG_DEBUG
            case .info: PH_LOG_INFO
            case .warning: PH_LOG_WARNING
            case .error: PH_LOG_ERROR
            }
        }
    }
}
