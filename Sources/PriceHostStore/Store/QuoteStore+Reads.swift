import FoundationEssentials
import PriceHostCore

extension QuoteStore {
    /// What a candles query gives: the candles, or how many there would be past the limit.
    package enum CandleAnswer: Sendable, Equatable {
        case candles([Candle])
        case tooMany(limit: Int)
    }

    /// Whether a read is local and quick (SQLite's file), so that a price may be answered on an event loop; a read of
    /// PostgreSQL is a round trip to a server that may be slow or gone, and is answered off the event loops.
    package var readsLocally: Bool { backend.readsLocally }

    /// The origins the store holds quotes or candles of for a pair: providers by name, then the median.
    package func origins(asset: String, currency: String) throws(StoreReadError) -> [QuoteOrigin] {
        try backend.origins(asset: asset, currency: currency).sorted {
            ($0 == .median ? 1 : 0, $0.providerText) < ($1 == .median ? 1 : 0, $1.providerText)
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
        let firstMinute = StoreTime.floorDivide(from + 59_999, 60_000)
        let firstStart = StoreTime.floorDivide(firstMinute + span - 1, span) * span
        let lastStart = StoreTime.floorDivide(StoreTime.floorDivide(to, 60_000), span) * span
        guard firstStart <= lastStart else { return .candles([]) }
        let real = try backend.candles(series, span: span, firstStart: firstStart, lastStart: lastStart, limit: limit + 1)
        guard fillPrevious else { return real.count > limit ? .tooMany(limit: limit) : .candles(real) }
        let seed = try backend.close(series, span: span, before: firstStart)
        guard let start = seed != nil ? firstStart : real.first.map({ $0.start / 60_000 }) else { return .candles([]) }
        let nowStart = StoreTime.floorDivide(StoreTime.floorDivide(now, 60_000), span) * span
        let end = max(min(lastStart, nowStart), real.last.map { $0.start / 60_000 } ?? start)
        guard (end - start) / span + 1 <= Int64(limit) else { return .tooMany(limit: limit) }
        return .candles(Self.filled(real, seed: seed, from: start, through: end, span: span))
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
        try backend.quote(series, atOrBefore: time)
    }

    /// The quotes of `series` with a venue time in (`after`, `through`], oldest first.
    package func quotes(_ series: SeriesKey, after: Int64, through: Int64) throws(StoreReadError) -> [StoredQuote] {
        try backend.quotes(series, after: after, through: through)
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
