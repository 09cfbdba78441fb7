/// A failure a provider reports for one fetch, or at load time.
///
/// `description` is the line the user reads; make it name what failed.
public struct ProviderError: Error, CustomStringConvertible, Sendable, Hashable {
    /// A machine-readable class of failure; crosses the C boundary as its `rawValue`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as text, e.g. `not_found`.
        public var rawValue: String
        /// Creates a code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The text of the code.
        public var description: String { rawValue }

        /// The provider has no price for the asked pair.
        public static let notFound = Code(rawValue: "not_found")
        /// The request itself is wrong (bad code, unsupported currency).
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// The source answered with something that is not a valid price.
        public static let invalidResponse = Code(rawValue: "invalid_response")
        /// The provider's settings in plugins.json are wrong.
        public static let invalidSettings = Code(rawValue: "invalid_settings")
        /// The source could not be reached or is down; trying later may work.
        public static let unavailable = Code(rawValue: "unavailable")
        /// The answer did not come in time.
        public static let timeout = Code(rawValue: "timeout")
        /// The answer was larger than the provider's `maxResponseBytes`.
        public static let responseTooLarge = Code(rawValue: "response_too_large")
        /// The plugin never called its fetch completion (reported by the host).
        public static let noCompletion = Code(rawValue: "no_completion")
        /// Anything else.
        public static let failed = Code(rawValue: "failed")

        /// Every code the host knows, in the order the header and PLUGINS.md list them.
        /// A plugin may send another; the host passes it on and treats it as it treats `failed`.
        public static let all: [Code] = [.notFound, .invalidRequest, .invalidResponse, .invalidSettings, .unavailable,
                                         .timeout, .responseTooLarge, .noCompletion, .failed]
    }

    /// The class of failure.
    public var code: Code
    /// One line naming what failed and why.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message, as the user reads it.
    public var description: String { message }
}
