import PriceHostCore

extension FleetFeeds {
    /// The fleet families (holder, alone, hand-overs, relayed, lag) after the local feeds' own.
    package func metricsText() -> String {
        let feeds = state.withLock { $0.feeds }.sorted { $0.key < $1.key }
        var writer = PrometheusWriter()
        if !feeds.isEmpty {
            writer.family("pricehost_stream_fleet_holder", "gauge", "Whether this instance holds the provider's upstream feed for the fleet (1) or not (0).")
            for (provider, feed) in feeds { writer.sample("pricehost_stream_fleet_holder", [("provider", provider)], feed.holding ? "1" : "0") }
            writer.family("pricehost_stream_fleet_alone", "gauge", "Whether this instance streams the provider on its own because Redis is down (1) or not (0).")
            for (provider, feed) in feeds { writer.sample("pricehost_stream_fleet_alone", [("provider", provider)], feed.alone ? "1" : "0") }
            writer.family("pricehost_stream_fleet_handovers_total", "counter", "Times this instance took the provider's feed lease.")
            for (provider, feed) in feeds { writer.sample("pricehost_stream_fleet_handovers_total", [("provider", provider)], String(feed.counters.handovers)) }
            writer.family("pricehost_stream_fleet_unheld_seconds_total", "counter",
                          "Seconds from the fleet's newest kept event to this instance taking the provider's feed over: the venue's prices of that time reached no instance.")
            for (provider, feed) in feeds {
                writer.sample("pricehost_stream_fleet_unheld_seconds_total", [("provider", provider)], Durations.seconds(feed.counters.unheld))
            }
            writer.family("pricehost_stream_fleet_relayed_total", "counter", "Feed updates this instance received through Redis.")
            for (provider, feed) in feeds { writer.sample("pricehost_stream_fleet_relayed_total", [("provider", provider)], String(feed.counters.relayed)) }
            writer.family("pricehost_stream_fleet_lag_seconds", "histogram", "From the holder publishing an update to this instance receiving it.")
            for (provider, feed) in feeds {
                writer.histogram("pricehost_stream_fleet_lag_seconds", [("provider", provider)], feed.counters.lag)
            }
        }
        return local.metricsText() + writer.text
    }
}

/// What a fleet feed counts on this instance.
struct FleetCounters: Sendable {
    static let lagBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]
    var handovers = 0
    /// From the fleet's newest kept event to each take-over by this instance, added up.
    var unheld: Duration = .zero
    /// The relay lag of each update received through Redis.
    var lag = PrometheusHistogram(bounds: FleetCounters.lagBuckets)
    /// Updates received through Redis.
    var relayed: Int { lag.count }

    mutating func recordRelay(lagSeconds: Double) {
        lag.record(max(0, lagSeconds))
    }
}
