/// One HTTP header.
public struct HTTPHeader: Sendable, Hashable {
    /// The name; lower case in responses.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a header.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// True when neither part could smuggle a line break (or NUL) into a request.
    public var isSafe: Bool {
        !name.isEmpty && !(name + value).unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
            && !name.unicodeScalars.contains { $0 == ":" || $0 == " " }
    }
}
