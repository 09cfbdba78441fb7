import Foundation
import ProviderABI

/// The HTTP client one provider's plugin is given: its policy around the
/// transport. At most `maxAttempts` tries, with exponential backoff and
/// jitter, for what can succeed on retry: timeouts, connection failures, 429
/// (honouring `Retry-After` up to a cap) and 5xx. Any other status, 4xx
/// included, is returned at once. Bodies are capped at `maxResponseBytes`.
struct ProviderHTTPClient: HTTPClient {
    /// The transport.
    let transport: any Networking
    /// The provider's policy.
    let policy: ProviderPolicy
    /// The provider's request budget, shared by all its requests; `nil` for none.
    let budget: TokenBucket?
    /// Sleeps between attempts; a test may shorten it.
    let sleep: @Sendable (Duration) async throws -> Void

    /// Creates the policy around `transport`.
    init(transport: any Networking, policy: ProviderPolicy, budget: TokenBucket? = nil,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.transport = transport
        self.policy = policy
        self.budget = budget
        self.sleep = sleep
    }

    func get(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        request.timeout = min(request.timeout ?? policy.timeout, policy.timeout)
        try transport.prepare()
        var attempt = 1
        while true {
            let delay: Duration
            do {
                try await budget?.take()
                let response = try await transport.get(request, maxResponseBytes: policy.maxResponseBytes)
                guard attempt < policy.maxAttempts, Self.isRetryable(status: response.status) else { return response }
                if let retryAfter = Self.retryAfter(response) {
                    // A server asking for a longer pause than we will wait has answered for now.
                    guard retryAfter <= policy.maxRetryAfter else { return response }
                    delay = retryAfter
                } else {
                    delay = backoff(attempt: attempt)
                }
            } catch let error as ProviderError where error.code == .timeout || error.code == .unavailable {
                guard attempt < policy.maxAttempts else {
                    throw ProviderError(error.code, attempt > 1 ? "\(error.message) (after \(attempt) attempts)" : error.message)
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
    static func retryAfter(_ response: HTTPResponse, now: Date = Date()) -> Duration? {
        guard let value = response.header("retry-after")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(max(0, Int(clamping: Int64(exactly: (date.timeIntervalSince(now) * 1000).rounded(.up)) ?? Int64.max)))
    }

    /// Half the exponential step plus a random half: `base * 2^(attempt-1) * [0.5, 1]`.
    func backoff(attempt: Int) -> Duration {
        let step = policy.retryBaseDelay * (1 << min(attempt - 1, 16))
        return step / 2 + step / 2 * Double.random(in: 0...1)
    }
}
