import FoundationEssentials
import PriceHostCore
import ProviderABI

/// A quote as the fleet keeps it in Redis: JSON with the exact decimal text and
/// the timestamp, e.g. `{"v":1,"asset":"BTC","currency":"USD","amount":"91234.56","provider":"coinbase","timestamp":"1763640000.123"}`
/// (`timestamp`: seconds since 1970, as text, exact to the microsecond).
enum SharedQuoteCodec {
    /// The key of `request`'s quote from `provider`: `pricehost:quote:coinbase:BTC-USD`.
    static func quoteKey(provider: String, request: QuoteRequest) -> String {
        "pricehost:quote:\(provider):\(request.asset)-\(request.currency)"
    }

    /// The key of the lock its fetch holds: `pricehost:lock:coinbase:BTC-USD`.
    static func lockKey(provider: String, request: QuoteRequest) -> String {
        "pricehost:lock:\(provider):\(request.asset)-\(request.currency)"
    }

    /// The key of `provider`'s fleet-wide request budget: `pricehost:budget:coinbase`.
    static func budgetKey(provider: String) -> String {
        "pricehost:budget:\(provider)"
    }

    /// The value stored for `quote`; its `bid` and `ask`, when known, after the rest (an instance that
    /// does not know them reads the quote without them).
    static func encode(_ quote: Quote) -> String {
        var members: [(String, JSONValue)] = [
            ("v", .number("1")),
            ("asset", .string(quote.asset)),
            ("currency", .string(quote.currency)),
            ("amount", .string(DecimalAmount.format(quote.amount))),
            ("provider", .string(quote.provider)),
            ("timestamp", .string(String(quote.timestamp.timeIntervalSince1970))),
        ]
        if let bid = quote.bid { members.append(("bid", .string(DecimalAmount.format(bid)))) }
        if let ask = quote.ask { members.append(("ask", .string(DecimalAmount.format(ask)))) }
        return JSONValue.object(JSONObject(members)).serialized
    }

    /// The quote in `bytes`, if they are one for `request` from `provider`; `nil` for anything
    /// else (not JSON, another version, another pair, an amount, bid or ask that is not a positive
    /// decimal, a time out of range): such a value is never served.
    static func decode(_ bytes: [UInt8], provider: String, request: QuoteRequest) -> Quote? {
        guard bytes.count <= 4096, case .object(let object)? = try? JSONParser.parse(bytes),
              object["v"] == .number("1"),
              object["asset"] == .string(request.asset), object["currency"] == .string(request.currency),
              object["provider"] == .string(provider),
              case .string(let amountText)? = object["amount"], let amount = DecimalAmount.parse(amountText), amount > 0,
              case .string(let timeText)? = object["timestamp"], let seconds = Double(timeText), seconds.isFinite,
              let sides = QuoteSides.decode(from: object) else { return nil }
        let timestamp = Date(timeIntervalSince1970: seconds)
        guard ISO8601Timestamp.isValid(timestamp) else { return nil }
        return Quote(asset: request.asset, currency: request.currency, amount: amount, provider: provider, timestamp: timestamp,
                     bid: sides.bid, ask: sides.ask)
    }
}
