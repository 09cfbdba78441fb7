import PriceHostCore

/// Whose prices a series holds: one provider's quotes, or the medians `serve` computed.
package enum QuoteOrigin: Hashable, Sendable {
    case provider(String)
    case median

    /// How the store keys it: the provider's name, or `@median`, which no provider can be called.
    var key: String {
        switch self {
        case .provider(let name): name
        case .median: "@median"
        }
    }

    /// What answers print as the quote's provider: its name, or `median` (as `fetch --aggregate median` prints it).
    package var providerText: String {
        switch self {
        case .provider(let name): name
        case .median: "median"
        }
    }

    init(key: String) {
        self = key == "@median" ? .median : .provider(key)
    }
}

/// A pair and whose prices of it: what candles, prices and TWAPs are asked of.
package struct SeriesKey: Hashable, Sendable {
    package var asset: String
    package var currency: String
    package var origin: QuoteOrigin

    package init(asset: String, currency: String, origin: QuoteOrigin) {
        self.asset = asset
        self.currency = currency
        self.origin = origin
    }
}

/// One quote as the store keeps it: the amount as its exact decimal text, the times in Unix milliseconds.
package struct StoredQuote: Sendable, Equatable {
    package var series: SeriesKey
    /// The exact decimal text (``DecimalAmount/format(_:)``'s), never a float.
    package var amount: String
    /// The venue's time of the quote: what candles and the price at a time follow.
    package var timestamp: Int64
    /// When this host got it.
    package var receivedAt: Int64
    /// A feed pushed it, or a fetch brought it (a median: `rest`).
    package var source: QuoteSource
    /// The venue's best bid as exact decimal text (``DecimalAmount/format(_:)``'s); `nil` when unknown, and for
    /// a quote kept before the store knew bids (SQLite layout 1, PostgreSQL layout 2).
    package var bid: String?
    /// The venue's best ask, as ``bid``.
    package var ask: String?

    package init(series: SeriesKey, amount: String, timestamp: Int64, receivedAt: Int64, source: QuoteSource,
                 bid: String? = nil, ask: String? = nil) {
        self.series = series
        self.amount = amount
        self.timestamp = timestamp
        self.receivedAt = receivedAt
        self.source = source
        self.bid = bid
        self.ask = ask
    }
}

/// One OHLC window of a series: its start in Unix milliseconds (aligned to UTC), the prices as exact text.
package struct Candle: Sendable, Equatable {
    package var start: Int64
    package var open: String
    package var high: String
    package var low: String
    package var close: String
    /// How many quotes fell in it; 0 for a window `fill=previous` carried the previous close into.
    package var count: Int64

    package init(start: Int64, open: String, high: String, low: String, close: String, count: Int64) {
        self.start = start
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.count = count
    }
}

/// A candle's width: 1 minute, and the longer ones rolled up from it.
package enum CandleInterval: String, CaseIterable, Sendable {
    case oneMinute = "1m"
    case fiveMinutes = "5m"
    case fifteenMinutes = "15m"
    case oneHour = "1h"
    case fourHours = "4h"
    case oneDay = "1d"

    /// Its width in minutes; windows start at multiples of it since 1970-01-01T00:00Z.
    package var minutes: Int64 {
        switch self {
        case .oneMinute: 1
        case .fiveMinutes: 5
        case .fifteenMinutes: 15
        case .oneHour: 60
        case .fourHours: 240
        case .oneDay: 1_440
        }
    }

    package var milliseconds: Int64 { minutes * 60_000 }

    /// The names, for messages: `1m, 5m, 15m, 1h, 4h or 1d`.
    package static let names = allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + (allCases.last?.rawValue ?? "")
}

/// Times as the store keeps them: Unix milliseconds, and minutes since 1970 for candles.
enum StoreTime {
    /// `value / divisor` rounded toward minus infinity: a time before 1970 belongs to the window that starts before it.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
