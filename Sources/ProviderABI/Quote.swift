import FoundationEssentials

/// One price: what one unit of `asset` is worth in `currency`, as seen at `timestamp`.
public struct Quote: Sendable, Hashable {
    /// The asset code, e.g. `BTC`.
    public var asset: String
    /// The quote currency code, e.g. `USD`.
    public var currency: String
    /// The price, exact: parsed from a decimal string, never from a binary float.
    public var amount: Decimal
    /// The name of the provider that answered, e.g. `file`.
    public var provider: String
    /// When the price was observed.
    public var timestamp: Date
    /// The venue's best bid, exact, when it gives one (ABI 1.4); `nil` when unknown.
    public var bid: Decimal?
    /// The venue's best ask, exact, when it gives one (ABI 1.4); `nil` when unknown.
    public var ask: Decimal?
    /// How far the host trusts it, set by the host when it judged the quote's age; `nil` when not judged.
    package var status: QuoteStatus?
    /// The two quotes (one when the asset is the bridge) a cross rate was derived from, in the order
    /// `derivedFrom` lists them; `nil` for a quote a provider answered directly. Set by the host only.
    package var derivedFrom: [Quote]?

    /// Creates a quote.
    public init(asset: String, currency: String, amount: Decimal, provider: String, timestamp: Date,
                bid: Decimal? = nil, ask: Decimal? = nil) {
        self.asset = asset
        self.currency = currency
        self.amount = amount
        self.provider = provider
        self.timestamp = timestamp
        self.bid = bid
        self.ask = ask
    }
}

extension Quote {
    /// `now` minus the quote's time in whole milliseconds, each time taken to its nearest millisecond (as
    /// ISO 8601 text shows them); 0 when the quote's time is ahead of `now`.
    package func ageMilliseconds(at now: Date) -> Int64 {
        Self.ageMilliseconds(of: timestamp, at: now)
    }

    /// ``ageMilliseconds(at:)`` of a quote stamped `timestamp`.
    package static func ageMilliseconds(of timestamp: Date, at now: Date) -> Int64 {
        func milliseconds(_ date: Date) -> Double { (date.timeIntervalSince1970 * 1000).rounded() }
        let age = milliseconds(now) - milliseconds(timestamp)
        guard age > 0, age.isFinite else { return 0 }
        return Int64(min(age, Double(Int64.max / 2)))
    }
}

/// A quote's `status` in the host's answers: `live` when fresh (from a live feed, or a fetch within
/// its limits), `stale` when older than its `maxAgeSeconds` or the last price of a stale feed.
package enum QuoteStatus: String, Sendable, Hashable {
    case live
    case stale
}
