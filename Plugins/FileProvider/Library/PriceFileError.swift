/// A price file that cannot be used, naming the file and where in it.
public struct PriceFileError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file as the user configured it, made absolute.
    public var path: String
    /// `line 4`, `line 3, column 14`, or a key path such as `[2].amount`; empty when it is the whole file.
    public var location: String
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(path: String, location: String, reason: String) {
        self.path = path
        self.location = location
        self.reason = reason
    }

    /// `/srv/prices.json: [2].amount: not a decimal number: "12,5"`.
    public var description: String {
        location.isEmpty ? "\(path): \(reason)" : "\(path): \(location): \(reason)"
    }
}
