import FoundationEssentials
import ProviderABI

/// Turns quotes into what `fetch` prints on stdout.
///
/// - text: aligned columns for people: `BTC-USD  64123.45  file  2026-11-20T12:00:00Z`
/// - json: one object per line (JSON Lines), keys in a fixed order:
///   `{"asset":"BTC","currency":"USD","amount":"64123.45","provider":"file","timestamp":"2026-11-20T12:00:00Z"}`
/// - csv: a header line `asset,currency,amount,provider,timestamp`, then one line per quote.
///
/// `amount` is always the exact decimal text, a JSON string, never a float.
package enum QuoteFormatter {
    /// The csv header line.
    package static let header = "asset,currency,amount,provider,timestamp"

    /// The lines to print for `quotes` in `format`; JSON gives each its `ageMs` at `now`, when given.
    package static func lines(for quotes: [Quote], format: OutputFormat, at now: Date? = nil) -> [String] {
        switch format {
        case .json:
            return quotes.map { json($0, at: now) }
        case .csv:
            return [header] + quotes.map { quote in
                [quote.asset, quote.currency, DecimalAmount.format(quote.amount), quote.provider,
                 ISO8601Timestamp.format(quote.timestamp)].joined(separator: ",")
            }
        case .text:
            let rows = quotes.map { quote in
                ["\(quote.asset)-\(quote.currency)", DecimalAmount.format(quote.amount), quote.provider,
                 ISO8601Timestamp.format(quote.timestamp)]
            }
            return TextTable.lines(rows)
        }
    }

    /// One quote as a JSON object on one line.
    /// - Parameters:
    ///   - amount: `quote.amount`'s text when the caller has it already (``DecimalAmount/format(_:)``'s).
    ///   - now: when the answer is written, for `ageMs`; `nil` leaves `ageMs` out.
    package static func json(_ quote: Quote, amount: String? = nil, at now: Date? = nil) -> String {
        var bytes: [UInt8] = []
        writeJSON(quote, amount: amount, at: now, to: &bytes) { _ in }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``json(_:amount:at:)``'s text to `bytes`, with what `moreMembers` appends (`,"key":value…`)
    /// after the five first members and before the quality ones (``writeQuality(_:bid:ask:to:)``); then a cross rate's
    /// `derivedFrom`; `ageMs` is the last.
    ///
    /// Written as bytes into one buffer, as `JSONValue`'s serialization would write it: a streaming host writes one per quote,
    /// and String's appends of the dozen pieces cost more than the rest of the quote's path together.
    /// - Parameters:
    ///   - amount: as ``json(_:amount:at:)``'s.
    ///   - bid: the bid's text when the caller has it already and the quote has a bid; `ask` likewise.
    package static func writeJSON(_ quote: Quote, amount: String?, bid: String? = nil, ask: String? = nil, at now: Date? = nil,
                                  to bytes: inout [UInt8], moreMembers: (inout [UInt8]) -> Void) {
        bytes.reserveCapacity(bytes.count + 256)
        bytes.appendUTF8(#"{"asset":"#)
        JSONValue.appendQuoted(quote.asset, to: &bytes)
        bytes.appendUTF8(#","currency":"#)
        JSONValue.appendQuoted(quote.currency, to: &bytes)
        bytes.appendUTF8(#","amount":"#)
        JSONValue.appendQuoted(amount ?? DecimalAmount.format(quote.amount), to: &bytes)
        bytes.appendUTF8(#","provider":"#)
        JSONValue.appendQuoted(quote.provider, to: &bytes)
        bytes.appendUTF8(#","timestamp":"#)
        JSONValue.appendQuoted(ISO8601Timestamp.format(quote.timestamp), to: &bytes)
        moreMembers(&bytes)
        writeQuality(quote, bid: bid, ask: ask, to: &bytes)
        if let legs = quote.derivedFrom { writeDerivedFrom(legs, to: &bytes) }
        if let now { appendAge(of: quote, at: now, to: &bytes) }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A cross rate's legs, in order: `,"derivedFrom":[{"pair":"ETH-USD","provider":"coinbase","amount":"3120.48"},…]`.
    static func writeDerivedFrom(_ legs: [Quote], to bytes: inout [UInt8]) {
        bytes.appendUTF8(#","derivedFrom":["#)
        for (index, leg) in legs.enumerated() {
            bytes.appendUTF8(index == 0 ? #"{"pair":"# : #",{"pair":"#)
            JSONValue.appendQuoted("\(leg.asset)-\(leg.currency)", to: &bytes)
            bytes.appendUTF8(#","provider":"#)
            JSONValue.appendQuoted(leg.provider, to: &bytes)
            bytes.appendUTF8(#","amount":"#)
            JSONValue.appendQuoted(DecimalAmount.format(leg.amount), to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// The members that say how good a quote is, each only when known (never `null`), in this order:
    /// `bid`, `ask` (exact decimal text), `status` (`live` or `stale`). `ageMs` follows them, last of all
    /// (``appendAge(of:at:to:)``), so that a line kept without it can take it at each answer.
    /// - Parameters:
    ///   - bidText: the bid's text when the caller has it (``DecimalAmount/format(_:)``'s); made from `quote.bid` otherwise.
    ///   - askText: the ask's, likewise.
    package static func writeQuality(_ quote: Quote, bid bidText: String? = nil, ask askText: String? = nil, to bytes: inout [UInt8]) {
        if let bid = quote.bid {
            bytes.appendUTF8(#","bid":"#)
            JSONValue.appendQuoted(bidText ?? DecimalAmount.format(bid), to: &bytes)
        }
        if let ask = quote.ask {
            bytes.appendUTF8(#","ask":"#)
            JSONValue.appendQuoted(askText ?? DecimalAmount.format(ask), to: &bytes)
        }
        if let status = quote.status {
            bytes.appendUTF8(#","status":"#)
            JSONValue.appendQuoted(status.rawValue, to: &bytes)
        }
    }

    /// The age's member up to its value, last in every quote's line.
    package static let ageMember = #","ageMs":"#

    /// `,"ageMs":N`: `now` minus the venue's time in whole milliseconds, 0 when the venue's clock is ahead.
    package static func appendAge(of quote: Quote, at now: Date, to bytes: inout [UInt8]) {
        bytes.appendUTF8(ageMember)
        bytes.appendUTF8(String(quote.ageMilliseconds(at: now)))
    }

    /// `watch --format json`'s line for a failure: the asset, currency, `error` and when; and `ageMs`,
    /// the refused quote's age, when it was refused for being too old.
    package static func failureLine(asset: String, currency: String, message: String, at time: Date, ageMilliseconds: Int64? = nil) -> String {
        var members: [(String, JSONValue)] = [
            ("asset", .string(asset)), ("currency", .string(currency)),
            ("error", .string(message)), ("timestamp", .string(ISO8601Timestamp.format(time))),
        ]
        if let ageMilliseconds { members.append(("ageMs", .number(String(ageMilliseconds)))) }
        return JSONValue.object(JSONObject(members)).serialized
    }

    /// ``failureLine(asset:currency:message:at:ageMilliseconds:)`` for `error`, with its age when it is a ``QuoteFailure`` that has one.
    package static func failureLine(asset: String, currency: String, error: any Error, at time: Date) -> String {
        failureLine(asset: asset, currency: currency, message: "\(error)", at: time, ageMilliseconds: (error as? QuoteFailure)?.ageMilliseconds)
    }
}
