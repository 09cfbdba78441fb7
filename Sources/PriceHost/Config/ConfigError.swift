/// A config file that cannot be used.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file, when one was found.
    public var path: String?
    /// What is wrong, naming the key path or line.
    public var reason: String

    /// Creates an error.
    public init(path: String?, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `/etc/pricehost/plugins.json: defaults.provider: expected a string, found a number`.
    public var description: String {
        guard let path else { return reason }
        return "\(path): \(reason)"
    }
}
