import Glibc
import PriceHostCore
import ProviderABI

/// The HTTP client one provider's plugin is given: its policy around the
/// transport. At most `maxAttempts` tries, with exponential backoff and
/// jitter, for what can succeed on retry: timeouts, connection failures, 429
/// (honouring `Retry-After` up to a cap), 5xx, and answers the plugin calls
/// retryable (ABI 1.2's `retry_answer`). Any other answer, 4xx included, is
/// returned at once. Bodies are capped at `maxResponseBytes`.
/// A failure's message ends with how many attempts were made: `(after 1 attempt)`.
package struct ProviderHTTPClient: HTTPClient {
    /// The transport.
    package let transport: any Networking
    /// The provider's policy.
    package let policy: ProviderPolicy
    /// The provider's request budget, shared by all its requests (by the fleet's, with `shared.redis`); `nil` for none.
    package let budget: (any RequestBudget)?
    /// Sleeps between attempts; a test may shorten it.
    package let sleep: @Sendable (Duration) async throws -> Void

    /// Creates the policy around `transport`.
    package init(transport: any Networking, policy: ProviderPolicy, budget: (any RequestBudget)? = nil,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.transport = transport
        self.policy = policy
        self.budget = budget
        self.sleep = sleep
    }

    package func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await get(request, retryingWhen: { _ in false })
    }

    package func get(_ request: HTTPRequest, retryingWhen isRetryable: @escaping @Sendable (HTTPResponse) -> Bool) async throws -> HTTPResponse {
        var request = request
        request.timeout = min(request.timeout ?? policy.timeout, policy.timeout)
        let options = policy.transferOptions
        try transport.prepare()
        var attempt = 1
        while true {
            let delay: Duration
            do {
                try await budget?.take()
                let response = try await transport.get(request, options: options)
                guard attempt < policy.maxAttempts, Self.isRetryable(status: response.status) || isRetryable(response) else { return response }
                if let retryAfter = Self.retryAfter(response) {
                    // A server asking for a longer pause than we will wait has answered for now.
                    guard retryAfter <= policy.maxRetryAfter else { return response }
                    delay = retryAfter
                } else {
                    delay = backoff(attempt: attempt)
                }
            } catch let error as ProviderError {
                guard attempt < policy.maxAttempts, error.code == .timeout || error.code == .unavailable else {
                    throw ProviderError(error.code, "\(error.message) (after \(attempt) attempt\(attempt == 1 ? "" : "s"))")
                }
                delay = backoff(attempt: attempt)
            }
            try await sleep(delay)
            attempt += 1
        }
    }

    /// 429 and 5xx may succeed on retry; no other status will.
    static func isRetryable(status: Int) -> Bool {
        status == 429 || (500...599).contains(status)
    }

    /// `Retry-After` as seconds (`120`) or an HTTP date, when present and sane.
    /// - Parameter now: seconds since 1970, as the clock reads them.
    static func retryAfter(_ response: HTTPResponse, now: Int = Int(time(nil))) -> Duration? {
        guard let value = response.header("retry-after") else { return nil }
        let trimmed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        if let seconds = Int(trimmed), seconds >= 0 { return .seconds(seconds) }
        guard let date = HTTPDate.secondsSince1970(trimmed) else { return nil }
        return .seconds(max(0, date - now))
    }

    /// Half the exponential step plus a random half: `base * 2^(attempt-1) * [0.5, 1]`.
    func backoff(attempt: Int) -> Duration {
        let step = policy.retryBaseDelay * (1 << min(attempt - 1, 16))
        return step / 2 + step / 2 * Double.random(in: 0...1)
    }
}
