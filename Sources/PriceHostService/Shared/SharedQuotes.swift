import Glibc
import PriceHostCore
import ProviderABI

/// The fleet's cache and fleet-wide coalescing, for the fetch an instance would
/// otherwise make alone (its ``CoalescingPriceFetcher`` already shares one fetch
/// among its own requests).
///
/// One atomic script per attempt: a value in Redis is the answer; else the caller
/// takes the pair's lock (`SET NX PX`) and fetches, storing the quote with `PX` =
/// `cacheSeconds`; else another instance is fetching and the caller polls for its
/// value, bounded by the fetch's deadline. The lock lives ``lockLifetime`` and its
/// holder renews it while it fetches, so when a holder dies another instance takes
/// over within that time. Redis failing at any point is never the fetch's failure:
/// the instance fetches alone.
package final class SharedQuotes: QuoteSharing {
    /// How long a lock lives without renewal: a dead holder's pair is free again after this.
    static let lockLifetime: Duration = .seconds(3)
    /// How soon a waiting instance looks for the value again: first after 10 ms, then half as
    /// long again each time, up to 100 ms, so a long fetch is not polled for 40 times a second.
    static let firstPoll: Duration = .milliseconds(10)
    static let longestPoll: Duration = .milliseconds(100)

    package typealias Outcome = SharedQuoteOutcome

    private let client: RedisClient
    private let metrics: SharedMetrics
    private let diagnostics: Diagnostics
    /// Keys whose bad value was reported: each is reported once.
    private let reportedBadValues = KeyReports()

    init(client: RedisClient, metrics: SharedMetrics, diagnostics: Diagnostics) {
        self.client = client
        self.metrics = metrics
        self.diagnostics = diagnostics
    }

    /// The quote for `request` from the fleet, or from `fetch` (upstream) when this
    /// instance is the one to fetch, or when Redis cannot help.
    /// - Parameters:
    ///   - lifetime: `cacheSeconds`: how long a fetched quote is kept in Redis.
    ///   - waitLimit: the longest this instance waits for another's fetch before fetching itself.
    package func quote(for request: QuoteRequest, provider: String, lifetime: Duration, waitLimit: Duration,
                       fetch: @Sendable () async -> Result<Quote, any Error>) async -> Outcome {
        let valueKey = SharedQuoteCodec.quoteKey(provider: provider, request: request)
        let lockKey = SharedQuoteCodec.lockKey(provider: provider, request: request)
        let token = Self.makeToken()
        let lockMilliseconds = String(Self.milliseconds(Self.lockLifetime))
        let deadline = ContinuousClock.now + waitLimit
        var waited = false
        var ignoreValue = false
        var poll = Self.firstPoll
        // Bounded by the deadline, and by a count in case the clock misbehaves.
        let attempts = Int(Self.milliseconds(waitLimit) / Self.milliseconds(Self.firstPoll)) + 8
        for _ in 0..<attempts where ContinuousClock.now < deadline {
            let reply: RESPValue
            do {
                reply = try await client.perform(.script(.acquire, keys: [valueKey, lockKey], arguments: [token, lockMilliseconds, ignoreValue ? "1" : "0"]))
            } catch {
                return Outcome(result: await fetch(), keep: lifetime)
            }
            guard case .array(let parts?) = reply, case .integer(let kind)? = parts.first else {
                // A reply we do not understand (a script error, say): work alone rather than guess.
                metrics.redisFailed()
                return Outcome(result: await fetch(), keep: lifetime)
            }
            switch kind {
            case 1:
                // A value that never expires was not written by the fleet (which always sets PX): it would be served forever.
                guard parts.count == 3, case .bulk(let bytes?) = parts[1], case .integer(let left) = parts[2], left > 0,
                      let quote = SharedQuoteCodec.decode(bytes, provider: provider, request: request) else {
                    reportBadValue(valueKey, provider: provider)
                    ignoreValue = true
                    continue
                }
                if !waited { metrics.hit(provider: provider) }
                return Outcome(result: .success(quote), keep: min(.milliseconds(left), lifetime))
            case 2:
                if !waited { metrics.miss(provider: provider) }
                return await lead(fetch, valueKey: valueKey, lockKey: lockKey, token: token, lifetime: lifetime)
            case 3:
                if !waited { metrics.wait(provider: provider) }
                waited = true
                ignoreValue = false
                try? await Task.sleep(for: poll)
                poll = min(poll * 1.5, Self.longestPoll)
            default:
                metrics.redisFailed()
                return Outcome(result: await fetch(), keep: lifetime)
            }
        }
        // The other instance took longer than a fetch may: fetch here, and share the answer.
        return await lead(fetch, valueKey: valueKey, lockKey: lockKey, token: token, lifetime: lifetime)
    }

    /// Fetches while holding (and renewing) the lock, then stores the quote and releases the lock.
    private func lead(_ fetch: @Sendable () async -> Result<Quote, any Error>, valueKey: String, lockKey: String,
                      token: String, lifetime: Duration) async -> Outcome {
        let client = client
        let renewal = Task {
            let milliseconds = String(Self.milliseconds(Self.lockLifetime))
            while !Task.isCancelled {
                try await Task.sleep(for: Self.lockLifetime / 3)
                _ = try? await client.perform(.script(.renew, keys: [lockKey], arguments: [token, milliseconds]))
            }
        }
        let result = await fetch()
        renewal.cancel()
        let call: RedisCall = switch result {
        case .success(let quote):
            .script(.store, keys: [valueKey, lockKey], arguments: [SharedQuoteCodec.encode(quote), String(max(1, Self.milliseconds(lifetime))), token])
        case .failure:
            // Free the pair at once: a waiting instance tries for itself.
            .script(.release, keys: [lockKey], arguments: [token])
        }
        if case .error = try? await client.perform(call) { metrics.redisFailed() }
        return Outcome(result: result, keep: lifetime)
    }

    private func reportBadValue(_ key: String, provider: String) {
        metrics.badValue(provider: provider)
        if reportedBadValues.shouldReport(key) {
            diagnostics.warning("shared: redis key \(key) holds a value that is not a quote for it; ignored, fetched again and overwritten")
        }
    }

    /// A lock owner's token: unique per process and call.
    private static func makeToken() -> String {
        "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    }

    package static func milliseconds(_ duration: Duration) -> Int64 {
        Durations.milliseconds(of: duration)
    }
}
