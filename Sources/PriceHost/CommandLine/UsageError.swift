/// A command line that cannot be run; the message says what to change.
struct UsageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong.
    var description: String

    /// Creates an error.
    init(_ description: String) {
        self.description = description
    }
}
