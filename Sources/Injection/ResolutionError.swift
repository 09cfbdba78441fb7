/// Why a container could not resolve a service.
///
/// ``description`` is written for the person who has to fix the registration: it names the
/// type, the name asked for, and the alternatives or the path that led there. Two errors are
/// equal when their ``code`` and ``description`` are; ``underlying`` is not compared.
public struct ResolutionError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of failure this is.
    public let code: Code
    /// The message a user reads.
    public let description: String
    /// The error a factory threw, for ``Code/factoryFailed``; otherwise `nil`.
    public var underlying: (any Error)?

    /// Creates an error with the given code and message, keeping the cause if there is one.
    public init(code: Code, description: String, underlying: (any Error)? = nil) {
        self.code = code
        self.description = description
        self.underlying = underlying
    }

    /// Compares code and description; the underlying error is ignored.
    public static func == (lhs: ResolutionError, rhs: ResolutionError) -> Bool {
        lhs.code == rhs.code && lhs.description == rhs.description
    }
}
