import FoundationEssentials
import ProviderABI

/// Reads Coinbase Exchange's WebSocket feed (`wss://ws-feed.exchange.coinbase.com`):
/// one `subscribe` for all of a connection's products on the `heartbeat` and `ticker`
/// channels, then one message a line of JSON, told apart by `type`.
///
/// - `ticker`: the last trade of `product_id` at `price` (a decimal string, kept as
///   written), at `time` (ISO 8601 with microseconds, cut to the millisecond), with the
///   book's `best_bid` and `best_ask` as the quote's bid and ask (ABI 1.4), kept as written. Its
///   `sequence` is reported first, scoped to the product. That number counts every event
///   of the product's order book, and the channel sends only trades, so consecutive
///   tickers skip numbers as a rule: what it tells the host is the order, not a loss.
/// - `heartbeat`: sent every second for each product, and a sign of life; its `sequence`
///   is not reported, since it runs on past the last ticker's in the same count.
/// - `error` (a refused subscription, a malformed request): `.error` with Coinbase's
///   `message` and `reason`, and the host reconnects.
/// - `subscriptions` (the acknowledgement) and any other type: nothing. Coinbase adds
///   types at will and asks clients to ignore those they do not know.
///
/// What does not fit: a message that is not JSON, a ticker for a product the connection
/// did not ask, or a ticker whose `price` is missing, not a string, not a decimal or not
/// above zero gives no quote (its sequence is still reported), nor does one whose `best_bid`
/// or `best_ask` is there (not `null`) but no such price, which the host would refuse;
/// a ticker without them is a quote without them. Never `.error`:
/// an error makes the host drop the connection, which cannot mend a message Coinbase
/// sent, and a venue that sent such tickers steadily would be reconnected to the limit.
/// The pair's last price stands until a good ticker comes.
public struct CoinbaseStreamReader: StreamReader {
    /// The channels every connection subscribes to: `heartbeat` keeps quiet products alive, `ticker` carries the prices.
    public static let channels = ["heartbeat", "ticker"]

    /// Creates a reader; it has no settings.
    public init() {}

    /// `{"type":"subscribe","product_ids":["BTC-USD",…],"channels":["heartbeat","ticker"]}`,
    /// one message for all of `pairs` (product ids as the REST API spells them); none for no pairs.
    public func subscribeMessages(for pairs: [QuoteRequest]) -> [String] {
        request("subscribe", pairs)
    }

    /// The same message as ``subscribeMessages(for:)`` with `"type":"unsubscribe"`.
    public func unsubscribeMessages(for pairs: [QuoteRequest]) -> [String] {
        request("unsubscribe", pairs)
    }

    /// What one message means (see the type's documentation).
    public func read(_ message: String, pairs: [QuoteRequest]) -> [StreamEvent] {
        // Fields, not a tree: a ticker has 18 members and the reader wants five (issue 33.6).
        guard let root = JSONFields(message), let type = root.string("type") else { return [] }
        switch type {
        case "ticker": return ticker(root, pairs: pairs)
        case "heartbeat": return [.heartbeat]
        case "error": return [.error(Self.errorText(root))]
        default: return []
        }
    }

    private func request(_ type: String, _ pairs: [QuoteRequest]) -> [String] {
        guard !pairs.isEmpty else { return [] }
        let message = JSONObject([("type", .string(type)), ("product_ids", .array(pairs.map { .string($0.pair) })),
                                  ("channels", .array(Self.channels.map { .string($0) }))])
        return [JSONValue.object(message).serialized]
    }

    private func ticker(_ root: JSONFields, pairs: [QuoteRequest]) -> [StreamEvent] {
        guard let product = root.string("product_id"), let pair = pairs.first(where: { $0.pair == product }) else { return [] }
        var events: [StreamEvent] = []
        if let text = root.number("sequence"), let sequence = Int64(text) {
            events.append(.sequence(sequence, scope: product))
        }
        // The prices' texts are checked, not parsed: the host makes the quote's Decimals.
        if let amount = root.string("price"), DecimalAmount.isPositive(amount),
           let bid = Self.side("best_bid", of: root), let ask = Self.side("best_ask", of: root) {
            let time = root.string("time").flatMap(Self.milliseconds(iso8601:))
            events.append(.quote(StreamQuote(pair, amount: amount, timestampMilliseconds: time, bid: bid, ask: ask)))
        }
        return events
    }

    /// The ticker's `best_bid` or `best_ask`: `.some(nil)` when it has none (absent or `null`), the text
    /// when it is a decimal above zero, `nil` when it is anything else (no quote then).
    static func side(_ key: String, of root: JSONFields) -> String?? {
        guard root.contains(key), root.value(key) != .null else { return .some(nil) }
        guard let text = root.string(key), DecimalAmount.isPositive(text) else { return nil }
        return .some(text)
    }

    /// `Failed to subscribe: ZZZ-USD is not a valid product`, from `message` and `reason`, one printable line.
    static func errorText(_ root: JSONFields) -> String {
        let words = ["message", "reason"].compactMap { root.string($0) }.filter { !$0.isEmpty }
        return ProviderText.oneLine(words.isEmpty ? "an error without a message" : words.joined(separator: ": "), limit: 300)
    }

    /// The milliseconds since 1970 of `2026-11-20T12:00:00.283114Z`, the microseconds cut
    /// (not rounded) to `.283`: ``ISO8601Timestamp`` reads three fraction digits by
    /// arithmetic, exactly, and hands more to Foundation's slower parser.
    static func milliseconds(iso8601 text: String) -> Int64? {
        var bytes = Array(text.utf8)
        if let dot = bytes.firstIndex(of: UInt8(ascii: ".")) {
            let digits = bytes[(dot + 1)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            if digits > 3 { bytes.removeSubrange((dot + 4)..<(dot + 1 + digits)) }
        }
        guard let date = ISO8601Timestamp.parse(String(decoding: bytes, as: UTF8.self)) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
