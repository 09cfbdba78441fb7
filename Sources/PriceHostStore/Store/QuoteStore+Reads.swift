import FoundationEssentials
import PriceHostCore

extension QuoteStore {
    /// What a candles query gives: the candles, or how many there would be past the limit.
    package enum CandleAnswer: Sendable, Equatable {
        case candles([Candle])
        case tooMany(limit: Int)
    }

    /// The origins the store holds quotes or candles of for a pair: providers by name, then the median.
    package func origins(asset: String, currency: String) throws(StoreReadError) -> [QuoteOrigin] {
        try readers.read { connection throws(SQLiteError) in
            let select = try connection.statement("SELECT origin FROM series WHERE asset = ?1 AND currency = ?2 ORDER BY origin")
            select.bind(1, asset); select.bind(2, currency)
            var found: [QuoteOrigin] = []
            while try select.step() { found.append(QuoteOrigin(key: select.text(0))) }
            return found.sorted { ($0 == .median ? 1 : 0, $0.providerText) < ($1 == .median ? 1 : 0, $1.providerText) }
        }
    }

    /// The candles of `series` at `interval` whose start is within [`from`, `to`] (Unix milliseconds), oldest first.
    /// With `fillPrevious`, a window with no quote has the previous close as its four prices and count 0, from the first
    /// real candle (or one before `from`) up to `to`, and never past the window `now` is in.
    /// `.tooMany` when the answer would hold more than `limit`.
    package func candles(_ series: SeriesKey, interval: CandleInterval, from: Int64, to: Int64, fillPrevious: Bool,
                         now: Int64, limit: Int) throws(StoreReadError) -> CandleAnswer {
        let span = interval.minutes
        // Windows are kept by their start in minutes; the first whose start is at or after `from`.
        let firstMinute = StoreWriter.floorDivide(from + 59_999, 60_000)
        let firstStart = StoreWriter.floorDivide(firstMinute + span - 1, span) * span
        let lastStart = StoreWriter.floorDivide(StoreWriter.floorDivide(to, 60_000), span) * span
        guard firstStart <= lastStart else { return .candles([]) }
        return try readers.read { connection throws(SQLiteError) -> CandleAnswer in
            guard let id = try Self.seriesID(series, in: connection) else { return .candles([]) }
            let select = try connection.statement("""
                SELECT start, open, high, low, close, count FROM candles
                WHERE series = ?1 AND span = ?2 AND start BETWEEN ?3 AND ?4 ORDER BY start LIMIT ?5
                """)
            select.bind(1, id); select.bind(2, span); select.bind(3, firstStart); select.bind(4, lastStart)
            select.bind(5, Int64(limit) + 1)
            var real: [Candle] = []
            while try select.step() {
                real.append(Candle(start: select.int64(0) * 60_000, open: select.text(1), high: select.text(2), low: select.text(3),
                                   close: select.text(4), count: select.int64(5)))
            }
            guard fillPrevious else { return real.count > limit ? .tooMany(limit: limit) : .candles(real) }
            let before = try connection.statement("""
                SELECT close FROM candles WHERE series = ?1 AND span = ?2 AND start < ?3 ORDER BY start DESC LIMIT 1
                """)
            before.bind(1, id); before.bind(2, span); before.bind(3, firstStart)
            let seed = try before.step() ? before.text(0) : nil
            guard let start = seed != nil ? firstStart : real.first.map({ $0.start / 60_000 }) else { return .candles([]) }
            let nowStart = StoreWriter.floorDivide(StoreWriter.floorDivide(now, 60_000), span) * span
            let end = max(min(lastStart, nowStart), real.last.map { $0.start / 60_000 } ?? start)
            guard (end - start) / span + 1 <= Int64(limit) else { return .tooMany(limit: limit) }
            return .candles(Self.filled(real, seed: seed, from: start, through: end, span: span))
        }
    }

    /// `real` with every window from `from` through `through` (minutes) that has none given the previous close.
    static func filled(_ real: [Candle], seed: String?, from: Int64, through: Int64, span: Int64) -> [Candle] {
        var answer: [Candle] = []
        var previous = seed
        var next = real.makeIterator()
        var upcoming = next.next()
        var minute = from
        while minute <= through {
            if let candle = upcoming, candle.start / 60_000 == minute {
                answer.append(candle)
                previous = candle.close
                upcoming = next.next()
            } else if let close = previous {
                answer.append(Candle(start: minute * 60_000, open: close, high: close, low: close, close: close, count: 0))
            }
            minute += span
        }
        return answer
    }

    /// The last quote of `series` at or before `time` (Unix milliseconds): the latest by the venue's time, of those the
    /// latest received. `nil` when there is none (within `rawRetentionDays`).
    package func quote(_ series: SeriesKey, atOrBefore time: Int64) throws(StoreReadError) -> StoredQuote? {
        try readers.read { connection throws(SQLiteError) -> StoredQuote? in
            guard let id = try Self.seriesID(series, in: connection) else { return nil }
            let select = try connection.statement("""
                SELECT ts, lag, amount, source FROM quotes WHERE series = ?1 AND ts <= ?2 ORDER BY ts DESC, lag DESC LIMIT 1
                """)
            select.bind(1, id); select.bind(2, time)
            return try select.step() ? Self.quote(series, from: select) : nil
        }
    }

    /// The quotes of `series` with a venue time in (`after`, `through`], oldest first.
    package func quotes(_ series: SeriesKey, after: Int64, through: Int64) throws(StoreReadError) -> [StoredQuote] {
        try readers.read { connection throws(SQLiteError) -> [StoredQuote] in
            guard let id = try Self.seriesID(series, in: connection) else { return [] }
            let select = try connection.statement("""
                SELECT ts, lag, amount, source FROM quotes WHERE series = ?1 AND ts > ?2 AND ts <= ?3 ORDER BY ts, lag
                """)
            select.bind(1, id); select.bind(2, after); select.bind(3, through)
            var found: [StoredQuote] = []
            while try select.step() { found.append(Self.quote(series, from: select)) }
            return found
        }
    }

    private static func quote(_ series: SeriesKey, from row: SQLiteStatement) -> StoredQuote {
        let timestamp = row.int64(0)
        return StoredQuote(series: series, amount: row.text(2), timestamp: timestamp, receivedAt: timestamp + row.int64(1),
                           source: row.int64(3) == 0 ? .stream : .rest)
    }

    private static func seriesID(_ series: SeriesKey, in connection: SQLiteConnection) throws(SQLiteError) -> Int64? {
        let select = try connection.statement(StoreSchema.selectSeries)
        select.bind(1, series.asset); select.bind(2, series.currency); select.bind(3, series.origin.key)
        return try select.step() ? select.int64(0) : nil
    }
}

extension QuoteStore {
    /// The providers' quotes of a pair with a venue time at or after `since` (Unix milliseconds), of `providers` (every
    /// one when `nil`; medians never), ordered by time, then provider: what `/v1/history` answers from the store.
    package func points(asset: String, currency: String, providers: [String]?, since: Int64) throws(StoreReadError) -> [StoredQuote] {
        let held = try origins(asset: asset, currency: currency).filter { origin in
            guard case .provider(let name) = origin else { return false }
            return providers?.contains(name) ?? true
        }
        var found: [StoredQuote] = []
        for origin in held {
            found += try quotes(SeriesKey(asset: asset, currency: currency, origin: origin), after: since - 1, through: Int64.max)
        }
        return found.enumerated().sorted { left, right in
            (left.element.timestamp, left.element.series.origin.providerText, left.offset)
                < (right.element.timestamp, right.element.series.origin.providerText, right.offset)
        }.map(\.element)
    }
}
