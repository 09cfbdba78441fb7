import PriceHostCore

/// A provider's `requestsPerSecond` and `burst` held by the whole fleet: one token
/// bucket in Redis (``RedisScript/takeToken``, atomic, on Redis's clock) that every
/// instance draws from. When Redis cannot answer, the instance's own bucket does,
/// so an outage never stops requests (the fleet may then go over the budget: each
/// instance keeps it alone).
struct SharedRequestBudget: RequestBudget {
    package let provider: String
    /// The instance's own bucket: the fallback, and where waits are counted for `/metrics`.
    package let local: TokenBucket
    let client: RedisClient
    package let metrics: SharedMetrics

    func take() async throws {
        let reply: RESPValue
        do {
            reply = try await client.perform(.script(.takeToken, keys: [SharedQuoteCodec.budgetKey(provider: provider)],
                                                     arguments: [String(local.rate), String(Int(local.burst))]))
        } catch {
            return try await local.take()
        }
        guard case .integer(let milliseconds) = reply, (0...86_400_000).contains(milliseconds) else {
            metrics.redisFailed()
            return try await local.take()
        }
        if milliseconds > 0 {
            local.countWait()
            try await Task.sleep(for: .milliseconds(milliseconds))
        }
    }
}
