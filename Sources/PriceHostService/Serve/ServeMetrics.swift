import CProviderABI
import ConcurrencyHelpers
import FoundationEssentials
import PriceHostCore
import ProviderABI

/// What `serve` counts, and its Prometheus text (format 0.0.4) at `GET /metrics`.
///
/// Counters live as long as the process; the rate-limit waits and open connections
/// are read from where they are kept when the exposition is made.
///
/// Every quote the instance gets (fetched, from the fleet, pushed by a feed) is kept
/// once: in ``history`` for `/v1/history`, in the quote ``store`` (when there is one), and as the last price and time of its series
/// (asset, currency, provider) for `pricehost_quote_amount` and
/// `pricehost_quote_timestamp_seconds`. At most ``maximumQuoteSeries`` (1,000) series are
/// exposed; a new one past that evicts the series least recently updated, counted by
/// `pricehost_quote_series_evicted_total`.
package final class ServeMetrics: FetchObserver {
    /// Series of the price gauges exposed at most.
    package static let maximumQuoteSeries = 1_000

    /// The upper bounds of the fetch latency histogram, in seconds.
    static let latencyBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Pair: Hashable, Comparable {
        var first: String
        var second: String
        static func < (lhs: Pair, rhs: Pair) -> Bool { (lhs.first, lhs.second) < (rhs.first, rhs.second) }
    }

    private struct State {
        var requests: [Pair: Int] = [:]
        var fetches: [Pair: Int] = [:]
        var latency: [String: PrometheusHistogram] = [:]
        var cacheHits: [String: Int] = [:]
        var cacheMisses: [String: Int] = [:]
        var coalesced: [String: Int] = [:]
        var streamClients = 0
        /// Each series' last price (exact text) and its time, with when it was last updated (a count).
        var quotes: [QuoteHistory.Series: (amount: String, timestamp: Date, update: UInt64)] = [:]
        var quoteUpdates: UInt64 = 0
        var quoteSeriesEvicted = 0
    }

    private let state = Lock(State())
    private let quoteSeriesLimit: Int
    /// The fleet's counts (`shared.redis`), exposed with the rest.
    package let shared = SharedMetrics()
    /// The webhooks' outcomes and post latency.
    package let webhooks = WebhookMetrics()
    /// The quotes of the last hour, per series, for `/v1/history`.
    package let history: QuoteHistory
    /// What a fetched quote's arrival is stamped with, and `/v1/history`'s window measured on.
    package let clock: any PriceClock
    /// Where every quote is recorded, and candles, prices at a time and TWAPs read from.
    package let store: ServeStore

    /// - Parameters:
    ///   - history, maximumQuoteSeries: the bounds, smaller in tests.
    ///   - clock: by default the system's; tests give a ``TestClock``.
    package init(history: QuoteHistory = QuoteHistory(), maximumQuoteSeries: Int = ServeMetrics.maximumQuoteSeries,
                 clock: any PriceClock = SystemClock(), store: ServeStore = .off) {
        self.history = history
        self.clock = clock
        self.store = store
        quoteSeriesLimit = max(maximumQuoteSeries, 1)
    }

    /// A fetch (or the fleet) brought `quote`: polled, so `"rest"`. One another instance fetched is that
    /// instance's to write to a store the fleet shares (``ServeStore/isShared``).
    package func received(_ quote: Quote, fetchedHere: Bool) {
        record(quote, source: .rest, receivedAt: clock.wallNow, toStore: fetchedHere || !store.isShared)
    }

    /// Keeps `quote`, got from `source` at `receivedAt`, in the history and the price gauges, unless it is one already kept.
    /// - Parameters:
    ///   - amount: `quote.amount`'s text when the caller has it already (``DecimalAmount/format(_:)``'s).
    ///   - toStore: false when another instance writes it to the store the fleet shares.
    package func record(_ quote: Quote, amount text: String? = nil, source: QuoteSource, receivedAt: Date, toStore: Bool = true) {
        let amount = text ?? DecimalAmount.format(quote.amount)
        keep(quote, amount: amount, source: source, receivedAt: receivedAt) {
            if toStore { store.record(quote, amount: amount, source: source, receivedAt: receivedAt) }
        }
    }

    /// Keeps a streamed quote as ``record(_:amount:source:receivedAt:toStore:)`` does, its store's row made with the
    /// texts its event was written with (a feed's bid and ask are not formatted again).
    package func record(_ update: StreamUpdate, toStore: Bool) {
        keep(update.quote, amount: update.amountText, source: update.source, receivedAt: update.receivedAt) {
            if toStore { store.record(update) }
        }
    }

    private func keep(_ quote: Quote, amount: String, source: QuoteSource, receivedAt: Date, storing: () -> Void) {
        guard history.record(quote, amount: amount, source: source, receivedAt: receivedAt) else { return }
        storing()
        let series = QuoteHistory.Series(asset: quote.asset, currency: quote.currency, provider: quote.provider)
        state.withLock { state in
            state.quoteUpdates += 1
            if state.quotes[series] == nil, state.quotes.count >= quoteSeriesLimit,
               let oldest = state.quotes.min(by: { $0.value.update < $1.value.update })?.key {
                state.quotes[oldest] = nil
                state.quoteSeriesEvicted += 1
            }
            state.quotes[series] = (amount, quote.timestamp, state.quoteUpdates)
        }
    }

    /// Writes what the fleet's feed holder got from its venue to the store the fleet shares: every quote a
    /// client of any instance may get, once, whether or not this instance has a client of its pair.
    package func keepHeld(_ update: StreamUpdate) {
        store.record(update)
    }

    /// Keeps a median serve computed, in the store (`aggregate=median`'s series).
    package func recordMedian(_ aggregate: AggregateQuote, receivedAt: Date) {
        store.record(median: aggregate, receivedAt: receivedAt)
    }

    /// Counts one answered request on `route` (a fixed name, never the raw path) with `status`.
    package func request(route: String, status: Int) {
        state.withLock { $0.requests[Pair(first: route, second: String(status)), default: 0] += 1 }
    }

    /// One more (or one fewer, with -1) SSE client.
    func streamClients(_ change: Int) { state.withLock { $0.streamClients += change } }

    /// The SSE clients connected now.
    var streamClientCount: Int { state.withLock { $0.streamClients } }

    package func cacheHit(provider: String) { state.withLock { $0.cacheHits[provider, default: 0] += 1 } }
    package func cacheMiss(provider: String) { state.withLock { $0.cacheMisses[provider, default: 0] += 1 } }
    package func coalesced(provider: String) { state.withLock { $0.coalesced[provider, default: 0] += 1 } }

    package func fetched(provider: String, succeeded: Bool, duration: Duration) {
        state.withLock { state in
            state.fetches[Pair(first: provider, second: succeeded ? "success" : "failure"), default: 0] += 1
            state.latency[provider, default: PrometheusHistogram(bounds: Self.latencyBuckets)].record(duration)
        }
    }

    /// The exposition: every family with `# HELP` and `# TYPE`, samples sorted by label.
    /// - Parameters:
    ///   - plugins: the loaded plugins as `(provider, version)`.
    ///   - rateLimitWaits: per provider with a request budget, how many requests waited for it.
    ///   - openConnections: the connections open now.
    ///   - redis: the fleet's Redis connection; `nil` without `shared.redis`.
    func exposition(plugins: [(provider: String, version: String)], rateLimitWaits: [String: Int], openConnections: Int,
                    redis: RedisClient.Health? = nil) -> String {
        let state = state.withLock { $0 }
        var writer = PrometheusWriter()
        writer.family("pricehost_http_requests_total", "counter", "HTTP requests answered, by route and status.")
        for (key, count) in state.requests.sorted(by: { $0.key < $1.key }) {
            writer.sample("pricehost_http_requests_total", [("route", key.first), ("status", key.second)], String(count))
        }
        writer.family("pricehost_upstream_fetches_total", "counter", "Fetches from a provider's plugin, by provider and outcome.")
        for (key, count) in state.fetches.sorted(by: { $0.key < $1.key }) {
            writer.sample("pricehost_upstream_fetches_total", [("provider", key.first), ("outcome", key.second)], String(count))
        }
        writer.family("pricehost_upstream_fetch_duration_seconds", "histogram", "How long a provider's fetch took.")
        for (provider, latency) in state.latency.sorted(by: { $0.key < $1.key }) {
            writer.histogram("pricehost_upstream_fetch_duration_seconds", [("provider", provider)], latency)
        }
        for (name, help, counts) in [("pricehost_cache_hits_total", "Quotes answered from the cache (cacheSeconds).", state.cacheHits),
                                     ("pricehost_cache_misses_total", "Cache lookups that found no fresh quote.", state.cacheMisses),
                                     ("pricehost_coalesced_requests_total", "Requests that shared a fetch already in flight.", state.coalesced),
                                     ("pricehost_rate_limit_waits_total", "Requests that waited for the provider's request budget.", rateLimitWaits)] {
            writer.family(name, "counter", help)
            writer.samples(name, label: "provider", counts)
        }
        let quotes = state.quotes.sorted { ($0.key.asset, $0.key.currency, $0.key.provider) < ($1.key.asset, $1.key.currency, $1.key.provider) }
        writer.family("pricehost_quote_amount", "gauge", "The last price of each pair from each provider, as a float for charts (the API keeps the exact decimal).")
        for (series, quote) in quotes {
            writer.sample("pricehost_quote_amount", [("asset", series.asset), ("currency", series.currency), ("provider", series.provider)],
                          Self.chartValue(quote.amount))
        }
        writer.family("pricehost_quote_timestamp_seconds", "gauge", "The time of that last price, in Unix seconds.")
        for (series, quote) in quotes {
            writer.sample("pricehost_quote_timestamp_seconds", [("asset", series.asset), ("currency", series.currency), ("provider", series.provider)],
                          Self.unixSeconds(quote.timestamp))
        }
        writer.family("pricehost_quote_series_evicted_total", "counter",
                      "Price series dropped from the two gauges above to keep at most \(quoteSeriesLimit), the least recently updated first.")
        writer.sample("pricehost_quote_series_evicted_total", [], String(state.quoteSeriesEvicted))
        shared.write(health: redis, to: &writer)
        webhooks.write(to: &writer)
        writer.family("pricehost_sse_clients", "gauge", "Server-Sent Events streams open now.")
        writer.sample("pricehost_sse_clients", [], String(state.streamClients))
        writer.family("pricehost_open_connections", "gauge", "HTTP connections open now.")
        writer.sample("pricehost_open_connections", [], String(openConnections))
        store.store?.writeMetrics(to: &writer)
        writer.family("pricehost_plugin_info", "gauge", "Loaded plugins, by provider and version.")
        for plugin in plugins.sorted(by: { $0.provider < $1.provider }) {
            writer.sample("pricehost_plugin_info", [("provider", plugin.provider), ("version", plugin.version)], "1")
        }
        writer.family("pricehost_build_info", "gauge", "The pricehost build.")
        writer.sample("pricehost_build_info", [("version", PriceHostVersion.text), ("plugin_abi", "\(PRICEHOST_ABI_MAJOR).\(PRICEHOST_ABI_MINOR)")], "1")
        return writer.text
    }

    /// An exact decimal as a sample value: a float, for charts only.
    static func chartValue(_ decimalText: String) -> String {
        guard let value = Double(decimalText), !value.isNaN else { return "NaN" }
        guard value.isFinite else { return value < 0 ? "-Inf" : "+Inf" }
        return "\(value)"
    }

    /// `date` in Unix seconds with its milliseconds, e.g. `1795702916.170`.
    static func unixSeconds(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let magnitude = milliseconds.magnitude
        let fraction = String(magnitude % 1000)
        return (milliseconds < 0 ? "-" : "") + "\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
