import ProviderABI

/// How the host's networking treats one provider: the host's own keys in
/// `providers.NAME`, removed before the rest reaches the plugin.
package struct ProviderPolicy: Sendable, Equatable {
    /// `timeoutSeconds`: time allowed for one attempt (1 to 300; default 10).
    package var timeout: Duration = .seconds(10)
    /// `maxAttempts`: tries for a request that can succeed on retry (1 to 10; default 3).
    package var maxAttempts = 3
    /// `maxResponseBytes`: the largest body accepted (1024 to 67108864; default 1 MiB).
    package var maxResponseBytes = 1 << 20
    /// `retryBaseDelayMilliseconds`: the first backoff; it doubles per retry, with jitter (0 to 60000; default 250).
    package var retryBaseDelay: Duration = .milliseconds(250)
    /// `maxRetryAfterSeconds`: the longest `Retry-After` honoured; a longer one ends the retries (0 to 3600; default 30).
    package var maxRetryAfter: Duration = .seconds(30)
    /// `maxConcurrentRequests`: fetches in flight at once for this provider (1 to 64; default 8).
    var maxConcurrentRequests = 8
    /// `maxAgeSeconds`: a quote older than this is stale (1 to 31536000; default none).
    package var maxAgeSeconds: Int?
    /// `staleQuotes`: `"error"` (default) rejects a stale quote; `"warn"` uses it with a warning.
    var warnOnStaleQuotes = false
    /// `requestsPerSecond`: the provider's request budget, as a token bucket (0.01 to 1000; default none).
    package var requestsPerSecond: Double?
    /// `burst`: requests allowed at once within that budget (1 to 1000; default the rate rounded up).
    package var burst: Int?
    /// `followRedirects`: follow up to 3 redirects within the same origin (default false: a 3xx is the answer).
    package var followRedirects = false
    /// `caFile`: a PEM bundle of the CAs to trust for this provider's https, instead of the system's
    /// (a path relative to the config file's directory; default none).
    package var caFile: String?
    /// `cacheSeconds`: a quote is reused for this long within one process, e.g. across `watch` ticks (0 to 86400; default 0, no cache).
    package var cacheSeconds = 0
    /// The feed's keys (``StreamPolicy``).
    package var stream = StreamPolicy()

    /// The longest a fetch through this policy's HTTP can take: every attempt
    /// timing out, with the longest wait allowed between attempts.
    package var worstCaseHTTPTime: Duration {
        let longestBackoff = retryBaseDelay * (1 << min(maxAttempts - 1, 16))
        return timeout * maxAttempts + max(maxRetryAfter, longestBackoff) * (maxAttempts - 1)
    }

    /// How long a fetch may wait for a plugin's completion: every attempt's timeout
    /// and a margin of ``fetchDeadlineMargin``. A plugin that never completes, or blocks
    /// the thread it was called on, fails its fetch then, naming the plugin. Time the
    /// plugin spends waiting on the host's HTTP does not count: that has deadlines of its own.
    package var fetchDeadline: Duration { timeout * maxAttempts + Self.fetchDeadlineMargin }

    /// What a plugin may spend on its own work beyond its HTTP attempts.
    static let fetchDeadlineMargin: Duration = .seconds(5)

    /// The keys the host reads and removes from a provider's settings.
    package static let keys = ["timeoutSeconds", "maxAttempts", "maxResponseBytes", "retryBaseDelayMilliseconds",
                              "maxRetryAfterSeconds", "maxConcurrentRequests", "maxAgeSeconds", "staleQuotes", "cacheSeconds",
                              "requestsPerSecond", "burst", "followRedirects", "caFile"] + StreamPolicy.keys

    /// The defaults.
    package init() {}

    /// Reads the host's keys from a provider's settings object.
    /// - Throws: ``JSONShapeError`` naming the key when a value is not a whole number in range.
    package init(settings: JSONCursor) throws(JSONShapeError) {
        stream = try StreamPolicy(settings: settings)
        if let value = try settings.optionalMember("timeoutSeconds") { timeout = .seconds(try value.integer(in: 1...300)) }
        if let value = try settings.optionalMember("maxAttempts") { maxAttempts = try value.integer(in: 1...10) }
        if let value = try settings.optionalMember("maxResponseBytes") { maxResponseBytes = try value.integer(in: 1024...(64 << 20)) }
        if let value = try settings.optionalMember("retryBaseDelayMilliseconds") { retryBaseDelay = .milliseconds(try value.integer(in: 0...60_000)) }
        if let value = try settings.optionalMember("maxRetryAfterSeconds") { maxRetryAfter = .seconds(try value.integer(in: 0...3600)) }
        if let value = try settings.optionalMember("maxConcurrentRequests") { maxConcurrentRequests = try value.integer(in: 1...64) }
        if let value = try settings.optionalMember("cacheSeconds") { cacheSeconds = try value.integer(in: 0...86_400) }
        if let value = try settings.optionalMember("requestsPerSecond") {
            // A rate, not money: a binary float is the right type.
            guard case .number(let text) = value.value, let rate = Double(text), (0.01...1000).contains(rate) else {
                throw value.error("expected a number of requests per second from 0.01 to 1000")
            }
            requestsPerSecond = rate
        }
        if let value = try settings.optionalMember("followRedirects") {
            guard case .bool(let follow) = value.value else { throw value.error("expected true or false") }
            followRedirects = follow
        }
        if let value = try settings.optionalMember("caFile") {
            let path = try value.string()
            guard !path.isEmpty else { throw value.error("must not be empty") }
            caFile = path
        }
        if let value = try settings.optionalMember("burst") { burst = try value.integer(in: 1...1000) }
        if let value = try settings.optionalMember("maxAgeSeconds") { maxAgeSeconds = try value.integer(in: 1...31_536_000) }
        if let value = try settings.optionalMember("staleQuotes") {
            switch try value.string() {
            case "error": warnOnStaleQuotes = false
            case "warn": warnOnStaleQuotes = true
            default: throw value.error("expected \"error\" or \"warn\"")
            }
        }
    }
}
