/// A config file that cannot be used.
package struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file, when one was found.
    package var path: String?
    /// What is wrong, naming the key path or line.
    package var reason: String

    /// Creates an error.
    package init(path: String?, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `/etc/pricehost/plugins.json: defaults.provider: expected a string, found a number`.
    package var description: String {
        guard let path else { return reason }
        return "\(path): \(reason)"
    }
}
