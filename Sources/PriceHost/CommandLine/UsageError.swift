/// A command line that cannot be run; the message says what to change.
public struct UsageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
