import ProviderABI

/// A fetch that failed, naming the provider, the pair and the provider's own reason.
struct QuoteFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// The provider that was asked.
    var provider: String
    /// What was asked.
    var request: QuoteRequest
    /// The class of failure, as the provider or the host reported it.
    var code: ProviderError.Code
    /// The provider's message, or the host's when the plugin misbehaved.
    var message: String

    /// Creates a failure.
    init(provider: String, request: QuoteRequest, code: ProviderError.Code, message: String) {
        self.provider = provider
        self.request = request
        self.code = code
        self.message = message
    }

    /// `file: no price for DOGE-USD in /srv/prices.json (it has: BTC-USD, ETH-USD)`.
    var description: String { "\(provider): \(message)" }
}
