import FoundationEssentials
import PriceHostCore
import ProviderABI

extension StoredQuote {
    /// A quote as the store keeps it: the venue's time, and `receivedAt`, when this host got it; in its provider's
    /// series, or with `median` in the median's (a median as a quote: its amount, its newest source's time); its bid
    /// and ask when known.
    /// - Parameters:
    ///   - amount: the amount's text when the caller has it already (``DecimalAmount/format(_:)``'s).
    ///   - bid: the bid's text, likewise, for a quote that has a bid; `ask` as `bid`.
    package init(_ quote: Quote, amount: String? = nil, bid: String? = nil, ask: String? = nil, receivedAt: Date, source: QuoteSource,
                 median: Bool = false) {
        self.init(series: SeriesKey(asset: quote.asset, currency: quote.currency, origin: median ? .median : .provider(quote.provider)),
                  amount: amount ?? DecimalAmount.format(quote.amount), timestamp: HistoryQuery.milliseconds(quote.timestamp),
                  receivedAt: HistoryQuery.milliseconds(receivedAt), source: source,
                  bid: quote.bid.map { bid ?? DecimalAmount.format($0) }, ask: quote.ask.map { ask ?? DecimalAmount.format($0) })
    }

    /// A streamed quote as the store keeps it, with the texts its event was written with.
    package init(_ update: StreamUpdate) {
        self.init(update.quote, amount: update.amountText, bid: update.bidText, ask: update.askText, receivedAt: update.receivedAt,
                  source: update.source)
    }

    /// A median as the store keeps it: its time is its newest source's.
    package init(median: AggregateQuote, receivedAt: Date, source: QuoteSource) {
        self.init(Quote(asset: median.asset, currency: median.currency, amount: median.median, provider: "median", timestamp: median.timestamp),
                  receivedAt: receivedAt, source: source, median: true)
    }
}
