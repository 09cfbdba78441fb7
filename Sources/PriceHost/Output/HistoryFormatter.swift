import PriceHostCore
import PriceHostStore

/// What `history` prints of the store's answer.
///
/// - json: ``HistoryResult/json``, as `/v1/candles`, `/v1/price` and `/v1/twap` answer it: the candles as one array,
///   oldest first; a price or a TWAP as one object.
/// - csv: a header, then a line per candle (`start,open,high,low,close,count`); for a price
///   `asset,currency,amount,provider,timestamp,at,ageMs`, for a TWAP `asset,currency,provider,amount,count,coverage,window,at`.
/// - text: aligned columns for people; candles under a header.
enum HistoryFormatter {
    static let candleHeader = ["start", "open", "high", "low", "close", "count"]
    static let priceHeader = ["asset", "currency", "amount", "provider", "timestamp", "at", "ageMs"]
    static let twapHeader = ["asset", "currency", "provider", "amount", "count", "coverage", "window", "at"]

    static func lines(for result: HistoryResult, format: OutputFormat) -> [String] {
        switch format {
        case .json:
            return [result.json]
        case .csv:
            let (header, rows) = table(result)
            return ([header] + rows).map { $0.joined(separator: ",") }
        case .text:
            return text(result)
        }
    }

    /// The csv columns and rows: the fields of the JSON answer, in its order.
    static func table(_ result: HistoryResult) -> (header: [String], rows: [[String]]) {
        switch result {
        case .candles(_, let candles):
            return (candleHeader, candles.map { [HistoryQuery.format($0.start), $0.open, $0.high, $0.low, $0.close, String($0.count)] })
        case .price(let quote, let at):
            return (priceHeader, [[quote.series.asset, quote.series.currency, quote.amount, quote.series.origin.providerText,
                                   HistoryQuery.format(quote.timestamp), HistoryQuery.format(at), String(at - quote.timestamp)]])
        case .twap(let series, let average, let window, let at):
            return (twapHeader, [[series.asset, series.currency, series.origin.providerText, average.amount, String(average.count),
                                  average.coverage, window, HistoryQuery.format(at)]])
        }
    }

    /// `BTC-USD  91234.56  file  2026-11-27T11:59:58Z  2 s before 2026-11-27T12:00:00Z`, or the candles under a header.
    static func text(_ result: HistoryResult) -> [String] {
        switch result {
        case .candles(_, let candles):
            guard !candles.isEmpty else { return [] }
            return TextTable.lines([candleHeader] + table(result).rows)
        case .price(let quote, let at):
            return TextTable.lines([["\(quote.series.asset)-\(quote.series.currency)", quote.amount, quote.series.origin.providerText,
                                     HistoryQuery.format(quote.timestamp), "\(QuoteStore.ageText(at - quote.timestamp)) before \(HistoryQuery.format(at))"]])
        case .twap(let series, let average, let window, let at):
            return TextTable.lines([["\(series.asset)-\(series.currency)", average.amount, series.origin.providerText,
                                     "TWAP over the \(window) to \(HistoryQuery.format(at))", "\(average.count) quotes",
                                     "coverage \(average.coverage)"]])
        }
    }
}
