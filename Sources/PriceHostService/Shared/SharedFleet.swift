import PriceHostCore

/// What one `serve` instance shares with the others through Redis: the client, the
/// fleet's cache and coalescing, and request budgets. Made from `shared` in
/// `plugins.json`; kept across reloads while `shared` does not change.
package final class SharedFleet: Sendable {
    package let settings: SharedSettings
    let client: RedisClient
    package let quotes: SharedQuotes
    let metrics: SharedMetrics

    /// Creates the fleet's side of this instance and starts connecting.
    package init(settings: SharedSettings, metrics: SharedMetrics, diagnostics: Diagnostics) {
        self.settings = settings
        self.metrics = metrics
        client = RedisClient(url: settings.redis, connectTimeout: .milliseconds(settings.connectTimeoutMilliseconds),
                             commandTimeout: .milliseconds(settings.commandTimeoutMilliseconds), observer: metrics, diagnostics: diagnostics)
        quotes = SharedQuotes(client: client, metrics: metrics, diagnostics: diagnostics)
        client.start()
    }

    /// `provider`'s budget for the whole fleet, falling back on `local`.
    package func budget(provider: String, local: TokenBucket) -> any RequestBudget {
        SharedRequestBudget(provider: provider, local: local, client: client, metrics: metrics)
    }

    /// What `/readyz` says about sharing: `connected`, or that the instance works alone, and why.
    var readiness: (isUp: Bool, description: String) {
        switch client.health {
        case .up: (true, "redis \(settings.redis.address): connected")
        case .connecting: (false, "redis \(settings.redis.address): connecting; serving with this instance's own cache, coalescing and request budgets")
        case .down(let reason): (false, "redis \(settings.redis.address): unavailable (\(reason)); serving with this instance's own cache, coalescing and request budgets")
        }
    }

    /// Stops the client (a reload that changed `shared`).
    package func shutdown() { client.shutdown() }
}
