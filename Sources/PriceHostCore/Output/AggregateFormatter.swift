import ProviderABI

/// Turns aggregates into what `fetch --aggregate median` prints.
///
/// - json: `{"asset","currency","amount" (the median),"provider":"median","timestamp","min","max","spreadBps","count","sources":{provider: amount},"outliers":[…],
///   "confidence" (the median absolute deviation),"excluded":{provider: why}}`
/// - csv: a header `asset,currency,amount,provider,timestamp,min,max,spread_bps,count,outliers` (outliers separated by `;`)
/// - text: `BTC-USD  91234.56  median of 3  min …  max …  spread … bps`, and the outliers when there are any
package enum AggregateFormatter {
    /// The csv header line.
    package static let header = "asset,currency,amount,provider,timestamp,min,max,spread_bps,count,outliers"

    package static func lines(for aggregates: [AggregateQuote], format: OutputFormat) -> [String] {
        switch format {
        case .json:
            return aggregates.map { json($0).serialized }
        case .csv:
            return [header] + aggregates.map { aggregate in
                [aggregate.asset, aggregate.currency, DecimalAmount.format(aggregate.median), "median", ISO8601Timestamp.format(aggregate.timestamp),
                 DecimalAmount.format(aggregate.minimum), DecimalAmount.format(aggregate.maximum),
                 DecimalAmount.format(aggregate.spreadBasisPoints), String(aggregate.sources.count),
                 aggregate.outliers.joined(separator: ";")].joined(separator: ",")
            }
        case .text:
            return TextTable.lines(aggregates.map { aggregate in
                ["\(aggregate.asset)-\(aggregate.currency)", DecimalAmount.format(aggregate.median), "median of \(aggregate.sources.count)",
                 "min \(DecimalAmount.format(aggregate.minimum))", "max \(DecimalAmount.format(aggregate.maximum))",
                 "spread \(DecimalAmount.format(aggregate.spreadBasisPoints)) bps"
                     + (aggregate.outliers.isEmpty ? "" : "  outliers: \(aggregate.outliers.joined(separator: ", "))")]
            })
        }
    }

    package static func json(_ aggregate: AggregateQuote) -> JSONValue {
        .object(JSONObject([
            ("asset", .string(aggregate.asset)),
            ("currency", .string(aggregate.currency)),
            ("amount", .string(DecimalAmount.format(aggregate.median))),
            ("provider", .string("median")),
            ("timestamp", .string(ISO8601Timestamp.format(aggregate.timestamp))),
            ("min", .string(DecimalAmount.format(aggregate.minimum))),
            ("max", .string(DecimalAmount.format(aggregate.maximum))),
            ("spreadBps", .string(DecimalAmount.format(aggregate.spreadBasisPoints))),
            ("count", .number(String(aggregate.sources.count))),
            ("sources", .object(JSONObject(aggregate.sources.map { ($0.provider, .string(DecimalAmount.format($0.amount))) }))),
            ("outliers", .array(aggregate.outliers.map(JSONValue.string))),
            ("confidence", .string(DecimalAmount.format(aggregate.confidence))),
            ("excluded", .object(JSONObject(aggregate.excluded.map { ($0.provider, .string($0.why)) }))),
        ]))
    }
}
