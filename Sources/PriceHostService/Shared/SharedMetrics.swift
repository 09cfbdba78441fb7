import ConcurrencyHelpers
import PriceHostCore

/// What the fleet's sharing counts, for `/metrics`: shared-cache hits and misses,
/// waits on another instance's fetch, bad values, Redis errors and round-trip times.
package final class SharedMetrics: RedisObserver {
    /// The upper bounds of the Redis round-trip histogram, in seconds.
    static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]

    private struct State {
        var hits: [String: Int] = [:]
        var misses: [String: Int] = [:]
        var waits: [String: Int] = [:]
        var badValues: [String: Int] = [:]
        var errors = 0
        var latency = PrometheusHistogram(bounds: SharedMetrics.latencyBuckets)
    }

    private let state = Lock(State())

    /// A quote came from the fleet's cache.
    func hit(provider: String) { state.withLock { $0.hits[provider, default: 0] += 1 } }
    /// The fleet's cache had none, and this instance fetched it.
    func miss(provider: String) { state.withLock { $0.misses[provider, default: 0] += 1 } }
    /// Another instance was fetching it, and this one waited.
    func wait(provider: String) { state.withLock { $0.waits[provider, default: 0] += 1 } }
    /// A value in Redis was not a quote (or `count` kept events were not the fleet's), and was ignored.
    func badValue(provider: String, count: Int = 1) { state.withLock { $0.badValues[provider, default: 0] += count } }

    func redisFailed() { state.withLock { $0.errors += 1 } }

    func redisExchanged(duration: Duration) {
        state.withLock { $0.latency.record(duration) }
    }

    /// The families, in Prometheus text format 0.0.4.
    /// - Parameter health: the Redis connection's state; `nil` when no `shared.redis` is configured,
    ///   and then nothing is exposed: a single instance has no fleet to report on.
    func exposition(health: RedisClient.Health?) -> String {
        var writer = PrometheusWriter()
        write(health: health, to: &writer)
        return writer.text
    }

    /// Writes the families (``exposition(health:)``) into `writer`.
    func write(health: RedisClient.Health?, to writer: inout PrometheusWriter) {
        guard let health else { return }
        let state = state.withLock { $0 }
        for (name, help, counts) in [("pricehost_shared_cache_hits_total", "Quotes answered from the fleet's cache in Redis.", state.hits),
                                     ("pricehost_shared_cache_misses_total", "Fleet cache lookups that found nothing, after which this instance fetched.", state.misses),
                                     ("pricehost_shared_waits_total", "Fetches that waited for another instance's fetch of the same pair.", state.waits),
                                     ("pricehost_shared_bad_values_total", "Values in Redis that were not a quote: ignored and overwritten.", state.badValues)] {
            writer.family(name, "counter", help)
            writer.samples(name, label: "provider", counts)
        }
        writer.family("pricehost_redis_errors_total", "counter",
                      "Connection attempts and exchanges with Redis that failed, and calls Redis refused (a key of the wrong type).")
        writer.sample("pricehost_redis_errors_total", [], String(state.errors))
        writer.family("pricehost_redis_up", "gauge", "Whether the fleet's Redis is connected (1) or not (0).")
        writer.sample("pricehost_redis_up", [], health == .up ? "1" : "0")
        writer.family("pricehost_redis_command_duration_seconds", "histogram", "Round trips to Redis (one pipeline each).")
        writer.histogram("pricehost_redis_command_duration_seconds", [], state.latency)
    }
}
