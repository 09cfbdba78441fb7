/// A config file that cannot be used.
struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file, when one was found.
    var path: String?
    /// What is wrong, naming the key path or line.
    var reason: String

    /// Creates an error.
    init(path: String?, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `/etc/pricehost/plugins.json: defaults.provider: expected a string, found a number`.
    var description: String {
        guard let path else { return reason }
        return "\(path): \(reason)"
    }
}
