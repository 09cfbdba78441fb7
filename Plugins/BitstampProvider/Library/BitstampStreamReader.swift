import FoundationEssentials
import ProviderABI

/// Reads Bitstamp's WebSocket API v2 (`wss://ws.bitstamp.net`): one `bts:subscribe` a
/// pair to its `live_trades_<market>` channel (Bitstamp takes one channel a message),
/// the market from ``BitstampProviderPlugin/market(for:)`` as the REST fetcher asks it.
/// Messages are `{"event", "channel", "data"}`:
///
/// - `trade`: a trade on `channel` at `data.price_str` (the decimal string, kept as
///   written; `data.price` is a JSON number, a float's rounding of it), at
///   `data.microtimestamp` (microseconds, cut to the millisecond).
/// - `bts:heartbeat`: Bitstamp's answer to the client's ``heartbeat``, a sign of life.
/// - `bts:request_reconnect`: `.reconnect`; Bitstamp sends it before maintenance.
/// - `bts:error` (a malformed request or channel): `.error` with its `data.code` and
///   `data.message`, and the host reconnects.
/// - `bts:subscription_succeeded` (one a channel), `bts:unsubscription_succeeded` and
///   any other event: nothing.
///
/// What does not fit: a message that is not JSON, a trade on a channel the connection did
/// not ask, or a trade whose `price_str` is missing, not a string, not a decimal or not
/// above zero gives nothing, and never `.error`: a reconnect cannot mend what Bitstamp
/// sent. The pair's last price stands until a good trade comes.
public struct BitstampStreamReader: StreamReader {
    /// What the client sends so that Bitstamp answers with a `bts:heartbeat`: the feed's ping.
    public static let heartbeat = #"{"event":"bts:heartbeat"}"#

    /// Creates a reader; it has no settings.
    public init() {}

    /// `live_trades_btcusd` for BTC-USD.
    public static func channel(for pair: QuoteRequest) -> String {
        "live_trades_" + BitstampProviderPlugin.market(for: pair)
    }

    /// `{"event":"bts:subscribe","data":{"channel":"live_trades_btcusd"}}`, one for each of `pairs`.
    public func subscribeMessages(for pairs: [QuoteRequest]) -> [String] {
        pairs.map { request("bts:subscribe", $0) }
    }

    /// `{"event":"bts:unsubscribe","data":{"channel":"live_trades_btcusd"}}`, one for each of `pairs`.
    public func unsubscribeMessages(for pairs: [QuoteRequest]) -> [String] {
        pairs.map { request("bts:unsubscribe", $0) }
    }

    /// What one message means (see the type's documentation).
    public func read(_ message: String, pairs: [QuoteRequest]) -> [StreamEvent] {
        guard let root = try? JSONCursor(JSONParser.parse(message)), let event = try? root.member("event").string() else { return [] }
        switch event {
        case "trade": return trade(root, pairs: pairs)
        case "bts:heartbeat": return [.heartbeat]
        case "bts:request_reconnect": return [.reconnect("bts:request_reconnect: Bitstamp asks for a new connection before maintenance")]
        case "bts:error": return [.error(Self.errorText(root))]
        default: return []
        }
    }

    private func request(_ event: String, _ pair: QuoteRequest) -> String {
        let data = JSONObject([("channel", .string(Self.channel(for: pair)))])
        return JSONValue.object(JSONObject([("event", .string(event)), ("data", .object(data))])).serialized
    }

    private func trade(_ root: JSONCursor, pairs: [QuoteRequest]) -> [StreamEvent] {
        guard let channel = try? root.member("channel").string(), let pair = pairs.first(where: { Self.channel(for: $0) == channel }),
              let data = try? root.member("data"), let price = try? data.member("price_str"),
              (try? price.positivePrice()) != nil, let amount = try? price.string() else { return [] }
        let time = (try? data.member("microtimestamp").string()).flatMap(Self.milliseconds(microseconds:))
        return [.quote(StreamQuote(pair, amount: amount, timestampMilliseconds: time))]
    }

    /// `Invalid channel provided.`, or `4009 Connection is unauthorized.` when `data.code`
    /// is not null: one printable line.
    static func errorText(_ root: JSONCursor) -> String {
        let data = try? root.member("data")
        let code = (try? data?.member("code")).map(\.value.serialized)
        let words = [code, try? data?.member("message").string()].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return ProviderText.oneLine(words.isEmpty ? "an error without a message" : words, limit: 300)
    }

    /// The milliseconds of `"1795176001282000"`, a count of microseconds since 1970 written as
    /// digits alone; `nil` for anything else or a time outside the years 0001 to 9999.
    static func milliseconds(microseconds text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let microseconds = Int64(text) else { return nil }
        let milliseconds = microseconds / 1000
        return ISO8601Timestamp.isValid(Date(timeIntervalSince1970: Double(milliseconds) / 1000)) ? milliseconds : nil
    }
}
