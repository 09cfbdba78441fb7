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
    package let quote: Quote
    /// The quote's amount as ``DecimalAmount/format(_:)`` writes it, made once for the event's JSON and the metrics.
    package let amountText: String
    /// The feed, or REST polled in its place.
    package var source: QuoteSource
    /// When the host received it.
    package var receivedAt: Date
    /// Its number in the fleet (`serve` with `shared.redis`): the fleet's epoch and the event's
    /// sequence, the same on every instance, for its SSE id; `nil` for an instance's own update.
    package var fleetEvent: (epoch: UInt64, sequence: UInt64)?

    /// - Parameter amountText: the amount's text, when known (``DecimalAmount/canonical(_:)`` of the venue's text): it must be
    ///   what ``DecimalAmount/format(_:)`` makes of `quote.amount`; by default it is made from it.
    package init(quote: Quote, amountText: String? = nil, source: QuoteSource, receivedAt: Date, fleetEvent: (epoch: UInt64, sequence: UInt64)? = nil) {
        self.quote = quote
        self.amountText = amountText ?? DecimalAmount.format(quote.amount)
        self.source = source
        self.receivedAt = receivedAt
        self.fleetEvent = fleetEvent
    }

    /// `QuoteFormatter.json(quote)` plus `"source"` and `"receivedAt"` (ISO 8601, ms).
    package var json: String { json(between: "", and: "") }

    /// ``json`` between `prefix` and `suffix`, made in one buffer: `data: {…}\n\n` for an SSE event.
    package func json(between prefix: String, and suffix: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        bytes.appendUTF8(prefix)
        QuoteFormatter.writeJSON(quote, amount: amountText, to: &bytes) { bytes in
            bytes.appendUTF8(#","source":"#)
            JSONValue.appendQuoted(source.rawValue, to: &bytes)
            bytes.appendUTF8(#","receivedAt":"#)
            JSONValue.appendQuoted(ISO8601Timestamp.format(receivedAt), to: &bytes)
        }
        bytes.appendUTF8(suffix)
        return String(decoding: bytes, as: UTF8.self)
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
    /// `provider`'s feed state: 0 connecting, 1 live, 2 stale; `nil` when it is not running.
    func stateGauge(_ provider: String) -> Int?
    /// Closes `provider`'s connections; a later subscription starts them again.
    func stop(provider: String) async
    /// Closes every connection.
    func stop() async
    /// The fleet's events of `pair` after `sequence` (`serve` with `shared.redis`), oldest first,
    /// each with its sequence and its update; `nil` when there is no fleet. Blocks: call it off the pool.
    func fleetBacklog(provider: String, pair: QuoteRequest, after sequence: UInt64) async -> [StreamUpdate]?
    /// The fleet's epoch, once known; `nil` without a fleet.
    var fleetEpoch: UInt64? { get }
    /// The fleet's epoch, read from the fleet now when not known yet (bounded by its timeouts); `nil` without a fleet.
    func loadFleetEpoch() async -> UInt64?
}

extension QuoteFeeds {
    package func fleetBacklog(provider: String, pair: QuoteRequest, after sequence: UInt64) async -> [StreamUpdate]? { nil }
    package var fleetEpoch: UInt64? { nil }
    package func loadFleetEpoch() async -> UInt64? { nil }
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
