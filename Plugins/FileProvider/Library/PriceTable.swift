import FoundationEssentials
import ProviderABI

/// The prices read from one price file, by pair (`BTC-USD`).
public struct PriceTable: Sendable, Equatable {
    /// One price in the file.
    public struct Entry: Sendable, Equatable {
        /// The exact amount.
        public var amount: Decimal
        /// The entry's own timestamp, when the file gave one.
        public var timestamp: Date?

        /// Creates an entry.
        public init(amount: Decimal, timestamp: Date?) {
            self.amount = amount
            self.timestamp = timestamp
        }
    }

    /// The entries keyed by `ASSET-CURRENCY`, upper case.
    public private(set) var entries: [String: Entry] = [:]

    /// Creates an empty table.
    public init() {}

    /// Adds an entry; returns `false` when the pair is already there.
    mutating func insert(pair: String, _ entry: Entry) -> Bool {
        guard entries[pair] == nil else { return false }
        entries[pair] = entry
        return true
    }

    /// The entry for a request, if any.
    public func entry(for request: QuoteRequest) -> Entry? {
        entries[request.pair]
    }
}
