import PriceHostCore

/// A feed's state, as `pricehost_stream_state{provider}` shows it.
package enum FeedState: Sendable {
    /// Connecting, waiting to reconnect, or connected with no price or heartbeat yet, and not yet stale: 0.
    case connecting
    /// A connection is up and has brought a price or a heartbeat (not just an acknowledgement): 1.
    case live
    /// No price or heartbeat for `staleAfterSeconds`: REST polls in its place: 2.
    case stale

    /// The gauge's value.
    package var gauge: Int {
        switch self {
        case .connecting: 0
        case .live: 1
        case .stale: 2
        }
    }
}

/// What one provider's feed counts.
struct FeedCounters: Sendable {
    /// The upper bounds of the quote-age histogram, in seconds: from the venue's time of a price to its receipt.
    static let ageBuckets: [Double] = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    var messages = 0
    var reconnects = 0
    var gaps = 0
    var age = PrometheusHistogram(bounds: FeedCounters.ageBuckets)

    mutating func recordAge(seconds: Double) {
        age.record(max(0, seconds))
    }

    /// The families of every provider's feed, in Prometheus text.
    static func exposition(_ feeds: [(provider: String, state: FeedState, counters: FeedCounters)]) -> String {
        guard !feeds.isEmpty else { return "" }
        var writer = PrometheusWriter()
        writer.family("pricehost_stream_state", "gauge", "Each feed's state: 0 connecting or reconnecting, 1 live, 2 stale (REST polls in its place).")
        for feed in feeds { writer.sample("pricehost_stream_state", [("provider", feed.provider)], String(feed.state.gauge)) }
        for (name, help, value) in [
            ("pricehost_stream_messages_total", "Messages received from the feed, heartbeats included.", \FeedCounters.messages),
            ("pricehost_stream_reconnects_total", "Connections to the feed opened after the first.", \FeedCounters.reconnects),
            ("pricehost_stream_gaps_total", "Jumps in the venue's sequence numbers: messages the venue sent that never arrived.", \FeedCounters.gaps),
        ] {
            writer.family(name, "counter", help)
            for feed in feeds { writer.sample(name, [("provider", feed.provider)], String(feed.counters[keyPath: value])) }
        }
        writer.family("pricehost_stream_quote_age_seconds", "histogram", "From the venue's time of a streamed price to its receipt.")
        for feed in feeds {
            writer.histogram("pricehost_stream_quote_age_seconds", [("provider", feed.provider)], feed.counters.age)
        }
        return writer.text
    }
}
