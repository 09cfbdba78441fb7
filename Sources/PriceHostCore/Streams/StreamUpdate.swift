import FoundationEssentials
import ProviderABI

/// Where a streamed quote came from.
package enum QuoteSource: String, Sendable {
    /// The venue's feed pushed it.
    case stream
    /// REST, polled while the feed was stale.
    case rest
}

/// One quote a feed delivered: the quote, how it came, and when the host received it.
package struct StreamUpdate: Sendable {
    /// The quote; its timestamp is the venue's time of the price (or when it was received, when the venue gives none).
    package var quote: Quote
    /// The feed, or REST polled in its place.
    package var source: QuoteSource
    /// When the host received it.
    package var receivedAt: Date

    package init(quote: Quote, source: QuoteSource, receivedAt: Date) {
        self.quote = quote
        self.source = source
        self.receivedAt = receivedAt
    }

    /// `QuoteFormatter.json(quote)` plus `"source"` and `"receivedAt"` (ISO 8601, ms).
    package var json: String {
        var object = QuoteFormatter.json(quote)
        object.removeLast()
        return object + #","source":"\#(source.rawValue)","receivedAt":"\#(ISO8601Timestamp.format(receivedAt))"}"#
    }
}

/// The venues' feeds, as the commands and `serve` use them: the host's WebSocket
/// feeds live in the HTTP layer; this is what the layers above see.
package protocol QuoteFeeds: Sendable {
    /// Whether `provider` has a feed this host can stream (its plugin describes one, and it has a REST fetcher to fall back on).
    func hasFeed(_ provider: String) -> Bool
    /// Delivers `provider`'s updates for `pair` to `handler`, from any thread and in order,
    /// until the subscription is cancelled. `nil` when `provider` has no feed.
    func subscribe(provider: String, pair: QuoteRequest,
                   handler: @escaping @Sendable (StreamUpdate) -> Void) -> FeedSubscription?
    /// The feeds' metrics in Prometheus text (empty when none ran).
    func metricsText() -> String
    /// Closes every connection.
    func stop() async
}

/// An active subscription to a feed; cancel it to stop its deliveries.
package final class FeedSubscription: Sendable {
    private let onCancel: @Sendable () -> Void

    package init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops deliveries; the feed drops its pair when nobody else wants it.
    package func cancel() { onCancel() }
}
