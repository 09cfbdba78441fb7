import FoundationEssentials
import ProviderABI

/// Reads Binance's market data streams (`wss://stream.binance.com:9443/ws`): the
/// `<symbol>@ticker` stream of each pair, all of a connection's in one `SUBSCRIBE`
/// (Binance takes at most 5 messages a second from a client), the symbol from
/// ``BinanceSettings/symbol(for:)`` as the REST fetcher asks it.
///
/// - `24hrTicker`: the last price `c` (a decimal string, kept as written) of symbol `s`
///   at event time `E` (milliseconds), with the best bid `b` and ask `a` as the quote's bid
///   and ask (ABI 1.4; ``BinanceResponse/side(_:)``), for every pair of the connection whose
///   symbol is `s`: with `{"USD": "USDT"}`, `BTCUSDT` answers BTC-USD (and BTC-USDT, if asked too).
/// - `serverShutdown`: `.reconnect`, as Binance asks.
/// - An error, `{"error": {"code", "msg"}, "id"}` or `{"code", "msg"}` (a refused
///   request): `.error` with its code and words, and the host reconnects.
/// - `{"result": null, "id": 1}` (the acknowledgement) and any other event: nothing.
///
/// A combined stream's wrapper, `{"stream": …, "data": {…}}`, is read through, so a
/// `streamURL` ending in `/stream` works as well as the raw `/ws`. Binance sends no
/// heartbeat of its own: its pings are WebSocket frames, which the host answers.
///
/// What does not fit: a message that is not JSON, a ticker for a symbol the connection
/// did not ask, or a ticker whose `c` is missing, not a string, not a decimal or not above
/// zero (Binance shows `"0.00000000"` for a symbol that has not traded) gives nothing, nor
/// does one whose `b` or `a` is there but not a decimal string (a zero one is a side without
/// orders: the quote has no bid or ask then), and
/// never `.error`: a reconnect cannot mend what Binance sent, and each one spends the
/// connection attempts Binance allows an address. The pair's last price stands until a good ticker comes.
public struct BinanceStreamReader: StreamReader {
    /// Where the symbols come from: the currency aliases, as for REST.
    public let settings: BinanceSettings

    /// Creates a reader for `settings`.
    public init(settings: BinanceSettings) {
        self.settings = settings
    }

    /// `btcusdt@ticker` for BTC-USD with `{"USD": "USDT"}`: the REST symbol in lower case,
    /// as Binance names streams; `nil` for USD without an alias, which Binance does not list.
    public func streamName(for pair: QuoteRequest) -> String? {
        (try? settings.symbol(for: pair)).map { $0.lowercased() + "@ticker" }
    }

    /// `{"method":"SUBSCRIBE","params":["btcusdt@ticker",…],"id":1}`: one message for every
    /// stream of `pairs`, each once; none when no pair has a symbol (their fallback says why).
    public func subscribeMessages(for pairs: [QuoteRequest]) -> [String] {
        request("SUBSCRIBE", id: 1, pairs)
    }

    /// `{"method":"UNSUBSCRIBE","params":[…],"id":2}`, as ``subscribeMessages(for:)``.
    public func unsubscribeMessages(for pairs: [QuoteRequest]) -> [String] {
        request("UNSUBSCRIBE", id: 2, pairs)
    }

    /// What one message means (see the type's documentation).
    public func read(_ message: String, pairs: [QuoteRequest]) -> [StreamEvent] {
        guard let root = try? JSONCursor(JSONParser.parse(message)) else { return [] }
        let event = (try? root.member("stream")) != nil ? (try? root.member("data")) ?? root : root
        if let error = Self.errorText(event) { return [.error(error)] }
        switch try? event.member("e").string() {
        case "24hrTicker": return ticker(event, pairs: pairs)
        case "serverShutdown": return [.reconnect("serverShutdown: Binance is about to close the connection")]
        default: return []
        }
    }

    private func request(_ method: String, id: Int, _ pairs: [QuoteRequest]) -> [String] {
        var seen = Set<String>()
        let names = pairs.compactMap(streamName(for:)).filter { seen.insert($0).inserted }
        guard !names.isEmpty else { return [] }
        let message = JSONObject([("method", .string(method)), ("params", .array(names.map { .string($0) })), ("id", .number(String(id)))])
        return [JSONValue.object(message).serialized]
    }

    private func ticker(_ event: JSONCursor, pairs: [QuoteRequest]) -> [StreamEvent] {
        guard let symbol = try? event.member("s").string(), let price = try? event.member("c"),
              (try? price.positivePrice()) != nil, let amount = try? price.string() else { return [] }
        let bid: String?, ask: String?
        do {
            bid = try BinanceResponse.side(event.optionalMember("b"))
            ask = try BinanceResponse.side(event.optionalMember("a"))
        } catch {
            return []
        }
        let time = (try? event.member("E").unixTimestamp(unit: .milliseconds)).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
        return pairs.filter { (try? settings.symbol(for: $0)) == symbol }
            .map { .quote(StreamQuote($0, amount: amount, timestampMilliseconds: time, bid: bid, ask: ask)) }
    }

    /// `-1121 Invalid symbol.` from `{"error": {"code", "msg"}}` or `{"code", "msg"}`, one
    /// printable line; `nil` when the message is no error.
    static func errorText(_ message: JSONCursor) -> String? {
        let body = (try? message.member("error")) ?? message
        guard let words = try? body.member("msg").string() else { return nil }
        let code = (try? body.member("code")).map(\.value.serialized)
        let text = [code, words].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return ProviderText.oneLine(text.isEmpty ? "an error without a message" : text, limit: 300)
    }
}
