import ProviderABI

/// A fetch that failed, naming the provider, the pair and the provider's own reason.
package struct QuoteFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// The provider that was asked.
    package var provider: String
    /// What was asked.
    package var request: QuoteRequest
    /// The class of failure, as the provider or the host reported it.
    package var code: ProviderError.Code
    /// The provider's message, or the host's when the plugin misbehaved.
    package var message: String
    /// The host refused what the plugin answered (a malformed amount, another pair,
    /// a broken struct): the plugin broke its contract, rather than reporting a failure.
    package var isRefusedAnswer = false
    /// Why a median leaves the provider out, when it is not a plain failure: `stale: …` or `out of bounds: …`
    /// (set by the quote's check); `nil`: `failed: ` and the message.
    package var exclusion: String?
    /// The refused quote's age, when it was refused for being too old (the `ageMs` of its error object).
    package var ageMilliseconds: Int64?

    /// What a median says of the provider in its `excluded`.
    package var whyExcluded: String { exclusion ?? "failed: \(message)" }

    /// Creates a failure.
    package init(provider: String, request: QuoteRequest, code: ProviderError.Code, message: String, isRefusedAnswer: Bool = false) {
        self.provider = provider
        self.request = request
        self.code = code
        self.message = message
        self.isRefusedAnswer = isRefusedAnswer
    }

    /// `file: no price for DOGE-USD in /srv/prices.json (it has: BTC-USD, ETH-USD)`.
    package var description: String { "\(provider): \(message)" }
}
