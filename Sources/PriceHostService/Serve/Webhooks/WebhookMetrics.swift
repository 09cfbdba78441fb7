import ConcurrencyHelpers
import PriceHostCore

/// What the webhooks count, exposed with serve's other metrics:
/// `pricehost_webhook_deliveries_total{outcome}` and the histogram `pricehost_webhook_delivery_seconds`.
///
/// Outcomes: `delivered` (a 2xx answer), `retried` (an attempt that failed and will be made again),
/// `failed` (given up after ``WebhookDelivery/retryLimit``), `dropped` (pushed out of a full queue before its turn).
package final class WebhookMetrics: Sendable {
    /// Every outcome, in the order the exposition lists them.
    package enum Outcome: String, Sendable, CaseIterable {
        case delivered, retried, failed, dropped
    }

    /// The upper bounds of the latency histogram, in seconds.
    static let latencyBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var outcomes: [Outcome: Int] = [:]
        var latency = PrometheusHistogram(bounds: WebhookMetrics.latencyBuckets)
    }

    private let state = Lock(State())

    package init() {}

    /// Counts one `outcome`.
    package func count(_ outcome: Outcome) {
        state.withLock { $0.outcomes[outcome, default: 0] += 1 }
    }

    /// One attempt took `duration`, whatever its answer.
    package func attempted(in duration: Duration) {
        state.withLock { $0.latency.record(duration) }
    }

    /// How many of `outcome` so far.
    package func total(_ outcome: Outcome) -> Int {
        state.withLock { $0.outcomes[outcome, default: 0] }
    }

    /// The two families, every outcome listed (0 until it happens).
    func write(to writer: inout PrometheusWriter) {
        let state = state.withLock { $0 }
        writer.family("pricehost_webhook_deliveries_total", "counter",
                      "Webhook posts by outcome: delivered, retried (an attempt to be made again), failed (given up after 10 minutes), dropped (pushed out of a full queue).")
        for outcome in Outcome.allCases {
            writer.sample("pricehost_webhook_deliveries_total", [("outcome", outcome.rawValue)], String(state.outcomes[outcome, default: 0]))
        }
        writer.family("pricehost_webhook_delivery_seconds", "histogram", "How long one webhook post attempt took.")
        writer.histogram("pricehost_webhook_delivery_seconds", [], state.latency)
    }
}
