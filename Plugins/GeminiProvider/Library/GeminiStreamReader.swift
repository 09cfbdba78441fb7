import FoundationEssentials
import ProviderABI

/// Reads Gemini's market data feed, version 1: one connection a symbol, named in its URL
/// (`wss://api.gemini.com/v1/marketdata/btcusd?trades=true&heartbeat=true`), so there is
/// nothing to subscribe. Version 1, not 2, because only it numbers its messages.
///
/// Every message carries `socket_sequence`, counted from 0 across the connection's
/// updates and heartbeats alike; it is reported first, scoped to the connection (`""`),
/// so that a lost message shows as a gap.
///
/// - `update`: its `events`; each of type `trade` is a quote for the connection's pair
///   at its `price` (a decimal string, kept as written), at the update's `timestampms`.
///   An update of several trades gives a quote for each, in order, the last one last. With
///   only trades asked, the first update has no events; book events (`change`), which
///   other URLs bring, give nothing.
/// - `heartbeat` (every 5 seconds): a sign of life.
/// - Any other type: its sequence alone.
///
/// Gemini sends no error on the socket: it refuses an unknown symbol at the handshake.
///
/// What does not fit: a message that is not JSON gives nothing; a trade whose `price` is
/// missing, not a string, not a decimal or not above zero gives no quote (the update's
/// sequence and its other trades still count), and never `.error`: a reconnect cannot
/// mend what Gemini sent. A connection whose pairs are not exactly one gives no quotes,
/// since the messages do not name their symbol.
public struct GeminiStreamReader: StreamReader {
    /// The query every connection's URL carries: trades only, and heartbeats.
    public static let query = "trades=true&heartbeat=true"

    /// Creates a reader; it has no settings.
    public init() {}

    /// `{base}/btcusd?trades=true&heartbeat=true` for BTC-USD, the symbol from
    /// ``GeminiProviderPlugin/symbol(for:)``; `nil` unless `pairs` is exactly one pair.
    public func connectionURL(base: String, pairs: [QuoteRequest]) -> String? {
        guard pairs.count == 1, let pair = pairs.first else { return nil }
        let root = base.hasSuffix("/") ? String(base.dropLast()) : base
        return "\(root)/\(GeminiProviderPlugin.symbol(for: pair))?\(Self.query)"
    }

    /// None: the URL subscribes.
    public func subscribeMessages(for pairs: [QuoteRequest]) -> [String] { [] }

    /// What one message means (see the type's documentation).
    public func read(_ message: String, pairs: [QuoteRequest]) -> [StreamEvent] {
        guard let root = try? JSONCursor(JSONParser.parse(message)), let type = try? root.member("type").string() else { return [] }
        var events: [StreamEvent] = []
        if case .number(let text)? = try? root.member("socket_sequence").value, let sequence = Int64(text) {
            events.append(.sequence(sequence, scope: ""))
        }
        switch type {
        case "update": events += trades(root, pairs: pairs)
        case "heartbeat": events.append(.heartbeat)
        default: break
        }
        return events
    }

    private func trades(_ root: JSONCursor, pairs: [QuoteRequest]) -> [StreamEvent] {
        guard pairs.count == 1, let pair = pairs.first, let updates = try? root.member("events").elements() else { return [] }
        let time = (try? root.member("timestampms").unixTimestamp(unit: .milliseconds)).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
        return updates.compactMap { event in
            guard (try? event.member("type").string()) == "trade", let price = try? event.member("price"),
                  (try? price.positivePrice()) != nil, let amount = try? price.string() else { return nil }
            return .quote(StreamQuote(pair, amount: amount, timestampMilliseconds: time))
        }
    }
}
