/// Malformed JSON text, with the line and column (1-based) where it went wrong.
public struct JSONParseError: Error, CustomStringConvertible, Sendable, Hashable {
    /// 1-based line of the offending character.
    public var line: Int
    /// 1-based column (in bytes) of the offending character.
    public var column: Int
    /// What was wrong, e.g. "expected ',' or '}' after an object member".
    public var reason: String

    /// Creates an error.
    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `line 3, column 14: expected ',' or '}' after an object member`.
    public var description: String { "line \(line), column \(column): \(reason)" }
}
