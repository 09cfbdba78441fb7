import PriceHostStore

/// What `__store-bench reads` asks a filled store (`__store-bench fill`, ending at `end`), as the store benchmark's
/// HTTP client asks `serve`: every 1-hour candle of the whole store, the most 1-minute candles one answer holds,
/// and the price at random times of the raw quotes' days.
struct StoreBenchQueries {
    let end: Int64
    let days: Int
    /// The reader's wall time: the price at a time must be within `rawRetentionDays` of it.
    let now: Int64

    private static let minute: Int64 = 60_000
    private static let hour: Int64 = 3_600_000
    private static let day: Int64 = 86_400_000

    /// `interval=1h` from the first whole hour of the store through the hour window that starts `days` x 24 - 1
    /// hours later: 2,160 candles for 90 days.
    var wholeHours: [(String, String)] {
        let start = end - Int64(days) * Self.day
        let from = (start + Self.hour - 1) / Self.hour * Self.hour
        return [("interval", "1h"), ("from", HistoryQuery.format(from)), ("to", HistoryQuery.format(from + (Int64(days) * 24 - 1) * Self.hour))]
    }

    /// `interval=1m` over the last ``QuoteStore/candleLimit`` minutes before `end`: one answer's most candles.
    var mostMinutes: [(String, String)] {
        let limit = Int64(QuoteStore.candleLimit)
        return [("interval", "1m"), ("from", HistoryQuery.format(end - limit * Self.minute)), ("to", HistoryQuery.format(end - Self.minute))]
    }

    /// A time after the first raw quote (and within the retention from `now`) and before `end`, to the millisecond.
    func randomPriceTime(using workload: inout StoreBenchWorkload) -> Int64 {
        let low = max(end - Int64(StoreBenchWorkload.rawDays) * Self.day, now - Int64(StoreBenchWorkload.rawDays) * Self.day) + 1_000
        return low + workload.below(max(1, end - low))
    }
}
