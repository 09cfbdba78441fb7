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
    /// The bid's text, when the quote has one: made once for the event's JSON and the store, as ``amountText`` is.
    package let bidText: String?
    /// The ask's text, as ``bidText``.
    package let askText: String?
    /// The feed, or REST polled in its place.
    package var source: QuoteSource
    /// When the host received it.
    package var receivedAt: Date
    /// Its number in the fleet (`serve` with `shared.redis`): the fleet's epoch and the event's
    /// sequence, the same on every instance, for its SSE id; `nil` for an instance's own update.
    package var fleetEvent: (epoch: UInt64, sequence: UInt64)?

    /// - Parameters:
    ///   - amountText: the amount's text, when known (``DecimalAmount/canonical(_:)`` of the venue's text): it must be
    ///     what ``DecimalAmount/format(_:)`` makes of `quote.amount`; by default it is made from it.
    ///   - bidText: the bid's, likewise; ignored when the quote has no bid. `Decimal`'s own text is made digit by
    ///     digit through divisions, and a streamed quote's bid and ask are written twice (its event and the store).
    ///   - askText: the ask's, likewise.
    package init(quote: Quote, amountText: String? = nil, bidText: String? = nil, askText: String? = nil, source: QuoteSource,
                 receivedAt: Date, fleetEvent: (epoch: UInt64, sequence: UInt64)? = nil) {
        self.quote = quote
        self.amountText = amountText ?? DecimalAmount.format(quote.amount)
        self.bidText = quote.bid.map { bid in bidText ?? DecimalAmount.format(bid) }
        self.askText = quote.ask.map { ask in askText ?? DecimalAmount.format(ask) }
        self.source = source
        self.receivedAt = receivedAt
        self.fleetEvent = fleetEvent
    }
}
