import ProviderABI

/// A fetch that failed, naming the provider, the pair and the provider's own reason.
public struct QuoteFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// The provider that was asked.
    public var provider: String
    /// What was asked.
    public var request: QuoteRequest
    /// The class of failure, as the provider or the host reported it.
    public var code: ProviderError.Code
    /// The provider's message, or the host's when the plugin misbehaved.
    public var message: String

    /// Creates a failure.
    public init(provider: String, request: QuoteRequest, code: ProviderError.Code, message: String) {
        self.provider = provider
        self.request = request
        self.code = code
        self.message = message
    }

    /// `file: no price for DOGE-USD in /srv/prices.json (it has: BTC-USD, ETH-USD)`.
    public var description: String { "\(provider): \(message)" }
}
