import ConcurrencyHelpers
import PriceHostCore

/// serve's webhooks (`webhooks` in `plugins.json`): one ``WebhookDelivery`` each, started with
/// serve's services after the stream hub, stopped before it. A reload keeps them as they started.
package final class Webhooks: Sendable {
    private let metrics: WebhookMetrics
    private let warn: @Sendable (String) -> Void
    private let deliveries = Lock<[WebhookDelivery]>([])

    /// - Parameters:
    ///   - metrics: where their outcomes are counted (``ServeMetrics/webhooks``).
    ///   - warn: says a hook's failed post, at most once a minute each.
    package init(metrics: WebhookMetrics, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.metrics = metrics
        self.warn = warn
    }

    /// Starts one delivery per hook of `settings`.
    package func start(_ settings: WebhookSettings, defaultCurrency: String, hub: StreamHub, poster: any WebhookPoster, clock: any PriceClock) {
        let started = settings.hooks.map { hook in
            WebhookDelivery(hook, defaultCurrency: defaultCurrency, hub: hub, poster: poster, clock: clock, metrics: metrics, warn: warn)
        }.filter { $0.start() }
        deliveries.withLock { $0 += started }
    }

    /// Stops every delivery and waits for their tasks.
    package func stop() async {
        let stopped = deliveries.withLock { deliveries in
            defer { deliveries = [] }
            return deliveries
        }
        for delivery in stopped { delivery.stop() }
        for delivery in stopped { await delivery.finished() }
    }
}
