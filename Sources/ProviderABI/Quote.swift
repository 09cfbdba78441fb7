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

    /// Creates a quote.
    public init(asset: String, currency: String, amount: Decimal, provider: String, timestamp: Date) {
        self.asset = asset
        self.currency = currency
        self.amount = amount
        self.provider = provider
        self.timestamp = timestamp
    }
}
