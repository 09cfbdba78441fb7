import FoundationEssentials
import PriceHostCore
import ProviderABI

/// How a fleet relays feed updates through Redis (`serve` with `shared.redis` and `"stream": true`).
///
/// An event is `SEQUENCE PUBLISHED_MS JSON`: the fleet's number for it (one counter for the
/// fleet, so ids are the same on every instance), when the holder published it (for the
/// pub/sub lag), and the update as `watch --stream` prints it in JSON, exact text and times.
/// It is published on `pricehost:stream:DB:PROVIDER` and kept in the pair's list
/// `pricehost:stream:PROVIDER:events:ASSET-CURRENCY` (the last 600, for 60 s).
enum FleetFeedCodec {
    /// The events of the last 60 s per pair, at most this many, are kept for `Last-Event-ID`.
    static let keptEvents = 600
    static let retention: Duration = .seconds(60)

    static func channel(database: Int, provider: String) -> String { "pricehost:stream:\(database):\(provider)" }
    static func channelPattern(database: Int) -> String { "pricehost:stream:\(database):*" }
    static func leaseKey(provider: String) -> String { "pricehost:stream:\(provider):holder" }
    static func pairsKey(provider: String) -> String { "pricehost:stream:\(provider):pairs" }
    static func eventsKey(provider: String, pair: QuoteRequest) -> String { "pricehost:stream:\(provider):events:\(pair.pair)" }
    static let counterKey = "pricehost:stream:sequence"
    static let epochKey = "pricehost:stream:epoch"

    /// The payload the holder hands the relay script (which puts the sequence in front).
    static func payload(_ update: StreamUpdate, publishedMilliseconds: Int64) -> String {
        "\(publishedMilliseconds) \(update.json)"
    }

    /// An event read back: its sequence, when it was published, and the update numbered with `epoch`;
    /// `nil` unless it is one of `provider`'s (and `pair`'s, when given) with a positive decimal amount
    /// (and bid and ask, when there), and times within the years 0001 to 9999.
    static func decode(_ bytes: [UInt8], provider: String, pair: QuoteRequest? = nil,
                       epoch: UInt64?) -> (sequence: UInt64, published: Int64, update: StreamUpdate)? {
        guard bytes.count <= 8192 else { return nil }
        let parts = bytes.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let sequence = UInt64(String(decoding: parts[0], as: UTF8.self)),
              let published = Int64(String(decoding: parts[1], as: UTF8.self)),
              case .object(let object)? = try? JSONParser.parse(Array(parts[2])),
              case .string(let asset)? = object["asset"], case .string(let currency)? = object["currency"],
              object["provider"] == .string(provider),
              pair.map({ object["asset"] == .string($0.asset) && object["currency"] == .string($0.currency) }) ?? true,
              case .string(let amountText)? = object["amount"], let amount = DecimalAmount.parse(amountText), amount > 0,
              case .string(let timeText)? = object["timestamp"], let timestamp = ISO8601Timestamp.parse(timeText),
              case .string(let receivedText)? = object["receivedAt"], let receivedAt = ISO8601Timestamp.parse(receivedText),
              case .string(let sourceText)? = object["source"], let source = QuoteSource(rawValue: sourceText),
              let sides = QuoteSides.decode(from: object) else { return nil }
        let quote = Quote(asset: asset, currency: currency, amount: amount, provider: provider, timestamp: timestamp,
                          bid: sides.bid, ask: sides.ask)
        // The texts the checks above accepted, as the feed's runner carries them: not made again from the Decimals.
        func text(_ key: String) -> String? {
            if case .string(let text)? = object[key] { DecimalAmount.canonical(text) } else { nil }
        }
        return (sequence, published, StreamUpdate(quote: quote, amountText: DecimalAmount.canonical(amountText), bidText: text("bid"),
                                                  askText: text("ask"), source: source, receivedAt: receivedAt,
                                                  fleetEvent: epoch.map { ($0, sequence) }))
    }
}
