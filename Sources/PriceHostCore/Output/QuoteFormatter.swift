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

    /// The lines to print for `quotes` in `format`.
    package static func lines(for quotes: [Quote], format: OutputFormat) -> [String] {
        switch format {
        case .json:
            return quotes.map { json($0) }
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
    /// - Parameter amount: `quote.amount`'s text when the caller has it already (``DecimalAmount/format(_:)``'s).
    package static func json(_ quote: Quote, amount: String? = nil) -> String {
        // Written directly (a streaming host writes one per quote), as `JSONValue`'s serialization would.
        #"{"asset":"# + JSONValue.quoted(quote.asset) + #","currency":"# + JSONValue.quoted(quote.currency)
            + #","amount":"# + JSONValue.quoted(amount ?? DecimalAmount.format(quote.amount))
            + #","provider":"# + JSONValue.quoted(quote.provider)
            + #","timestamp":"# + JSONValue.quoted(ISO8601Timestamp.format(quote.timestamp)) + "}"
    }

    /// `watch --format json`'s line for a failure: the asset, currency, `error` and when.
    package static func failureLine(asset: String, currency: String, message: String, at time: Date) -> String {
        JSONValue.object(JSONObject([
            ("asset", .string(asset)), ("currency", .string(currency)),
            ("error", .string(message)), ("timestamp", .string(ISO8601Timestamp.format(time))),
        ])).serialized
    }
}
