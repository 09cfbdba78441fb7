import FoundationEssentials
import ProviderABI

/// What `watch --stream` prints per update: the quote as `fetch` prints it, plus where it
/// came from (`stream`, or `rest` while the feed was stale) and when it arrived.
///
/// - json: `fetch --format json`'s object plus `"source"` and `"receivedAt"` (ISO 8601, ms)
/// - csv: a header `asset,currency,amount,provider,timestamp,source,receivedAt`, then a line per update
/// - text: `BTC-USD  64123.45  coinbase  2026-11-20T12:00:00.123Z  stream`
package enum StreamFormatter {
    /// The csv header line.
    package static let header = QuoteFormatter.header + ",source,receivedAt"

    /// One update's line.
    package static func line(_ update: StreamUpdate, format: OutputFormat) -> String {
        let quote = update.quote
        switch format {
        case .json:
            return update.json
        case .csv:
            return [quote.asset, quote.currency, DecimalAmount.format(quote.amount), quote.provider,
                    ISO8601Timestamp.format(quote.timestamp), update.source.rawValue,
                    ISO8601Timestamp.format(update.receivedAt)].joined(separator: ",")
        case .text:
            return ["\(quote.asset)-\(quote.currency)", DecimalAmount.format(quote.amount), quote.provider,
                    ISO8601Timestamp.format(quote.timestamp), update.source.rawValue].joined(separator: "  ")
        }
    }

    /// A median's line: `AggregateFormatter`'s, with `"source"` (`rest` when any venue's
    /// latest quote came from REST, else `stream`) and `"receivedAt"` in json.
    package static func line(_ aggregate: AggregateQuote, source: QuoteSource, receivedAt: Date, format: OutputFormat) -> String {
        switch format {
        case .json:
            guard case .object(var object) = AggregateFormatter.json(aggregate) else { return "" }
            object["source"] = .string(source.rawValue)
            object["receivedAt"] = .string(ISO8601Timestamp.format(receivedAt))
            return JSONValue.object(object).serialized
        case .csv, .text:
            return AggregateFormatter.lines(for: [aggregate], format: format).last ?? ""
        }
    }
}
