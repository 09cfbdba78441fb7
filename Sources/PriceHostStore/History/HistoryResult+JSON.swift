import FoundationEssentials
import PriceHostCore
import ProviderABI

extension Candle {
    /// `{"start","open","high","low","close","count"}`: the prices as exact text, `start` in ISO 8601 UTC.
    package var json: JSONValue {
        .object(JSONObject([
            ("start", .string(HistoryQuery.format(start))),
            ("open", .string(open)), ("high", .string(high)), ("low", .string(low)), ("close", .string(close)),
            ("count", .number(String(count))),
        ]))
    }
}

extension HistoryResult {
    /// The body `/v1/candles`, `/v1/price` and `/v1/twap` answer, and `history --format json` prints:
    /// - candles: a JSON array, oldest first;
    /// - a price: the object `fetch --format json` prints, then `at` and `ageMs`, then `bid` and `ask` when kept;
    /// - a TWAP: `{"asset","currency","provider","amount","count","coverage","window","at"}`.
    package var json: String {
        switch self {
        case .candles(_, let candles):
            return JSONValue.array(candles.map(\.json)).serialized
        case .price(let quote, let at):
            var members: [(String, JSONValue)] = [
                ("asset", .string(quote.series.asset)), ("currency", .string(quote.series.currency)),
                ("amount", .string(quote.amount)), ("provider", .string(quote.series.origin.providerText)),
                ("timestamp", .string(HistoryQuery.format(quote.timestamp))),
                ("at", .string(HistoryQuery.format(at))), ("ageMs", .number(String(at - quote.timestamp))),
            ]
            if let bid = quote.bid { members.append(("bid", .string(bid))) }
            if let ask = quote.ask { members.append(("ask", .string(ask))) }
            return JSONValue.object(JSONObject(members)).serialized
        case .twap(let series, let average, let window, let at):
            return JSONValue.object(JSONObject([
                ("asset", .string(series.asset)), ("currency", .string(series.currency)),
                ("provider", .string(series.origin.providerText)),
                ("amount", .string(average.amount)), ("count", .number(String(average.count))),
                ("coverage", .string(average.coverage)), ("window", .string(window)),
                ("at", .string(HistoryQuery.format(at))),
            ])).serialized
        }
    }
}
