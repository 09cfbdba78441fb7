import ConcurrencyHelpers
import FoundationEssentials
import PriceHostCore
import ProviderABI

/// The quotes this instance got, kept in memory for `GET /v1/history`: a ring per
/// series (asset, currency, provider), so a board can draw the last minutes on load.
///
/// Bounded twice, so that no client can make it grow:
/// - per series at most ``pointsPerSeries`` (3,600) points: one a second for the
///   hour a client may ask for. A provider's second quote within the same second (of
///   arrival) replaces its first, so even a feed that pushes many a second fills the
///   hour; past 3,600 the oldest point goes.
/// - at most ``maximumSeries`` (256) series; a quote of a new one past that evicts the
///   series least recently updated. A point takes 40 bytes: at most about 37 MB in all.
///
/// A quote got again (the same feed update through two topics, or again to a new one; the
/// REST quote a feed falls back on, which the fetch already reported; the fleet's cached
/// quote asked for twice) is recorded once: one with the time and price of one of its
/// series' last ``remembered`` quotes is not recorded. Nothing else is refused: a quote
/// older than the newest (a venue's clock behind ours) is kept, and ordered by its time.
package final class QuoteHistory: Sendable {
    /// Points kept per series at most: one a second for an hour.
    package static let pointsPerSeries = 3_600
    /// Series kept at most; a new one past this evicts the least recently updated.
    package static let maximumSeries = 256
    /// The longest span a client may ask for, in minutes.
    package static let maximumMinutes = 60
    /// How many of a series' last quotes a quote got again is recognised by.
    static let remembered = 16

    /// One quote as `/v1/history` answers it.
    package struct Point: Sendable, Equatable {
        package var amount: Decimal
        /// `.stream` when a feed pushed it, `.rest` when a fetch brought it.
        package var source: QuoteSource
        /// The quote's own time.
        package var timestamp: Date
        /// When this instance got it: what the window is measured on.
        package var receivedAt: Date
    }

    /// A pair and the provider that quoted it.
    package struct Series: Hashable, Sendable {
        package var asset: String
        package var currency: String
        package var provider: String
    }

    /// One series' points, oldest first once unrolled.
    private struct Ring {
        var points: [Point] = []
        /// How many points were appended in all; the next goes at `appended % capacity`.
        var appended = 0
        /// The history's count of updates when this series was last updated, for eviction.
        var lastUpdate: UInt64 = 0

        /// The time and price of the last ``QuoteHistory/remembered`` quotes recorded, those a later one replaced too.
        /// The price as its canonical text: equal texts, equal amounts, compared without `Decimal`'s arithmetic
        /// (a feed's tickers often share a time, and this ran for each of them 16 times).
        var recent: [(timestamp: Date, amount: String)] = []
        var recentCount = 0

        /// Keeps `point` unless it is a quote already recorded; false when it was one.
        mutating func record(_ point: Point, amountText: String, capacity: Int) -> Bool {
            guard !recent.contains(where: { $0.timestamp == point.timestamp && $0.amount == amountText }) else { return false }
            if recent.count < QuoteHistory.remembered {
                recent.append((point.timestamp, amountText))
            } else {
                recent[recentCount % QuoteHistory.remembered] = (point.timestamp, amountText)
            }
            recentCount += 1
            if !points.isEmpty, Self.second(of: point.receivedAt) == Self.second(of: points[(appended - 1) % points.count].receivedAt) {
                // One point per second: the last got in it.
                points[(appended - 1) % points.count] = point
                return true
            }
            if points.count < capacity {
                points.append(point)
            } else {
                points[appended % capacity] = point
            }
            appended += 1
            return true
        }

        /// Oldest first.
        var ordered: [Point] {
            let start = points.isEmpty ? 0 : appended % points.count
            return Array(points[start...] + points[..<start])
        }

        private static func second(of date: Date) -> Double { date.timeIntervalSince1970.rounded(.down) }
    }

    private struct State {
        var rings: [Series: Ring] = [:]
        var updates: UInt64 = 0
        var evicted = 0
    }

    private let state = Lock(State())
    private let capacity: Int
    private let maximum: Int

    /// - Parameters: the bounds, smaller in tests.
    package init(pointsPerSeries: Int = QuoteHistory.pointsPerSeries, maximumSeries: Int = QuoteHistory.maximumSeries) {
        capacity = max(pointsPerSeries, 1)
        maximum = max(maximumSeries, 1)
    }

    /// Keeps `quote`, got from `source` at `receivedAt`. False when it is a quote already recorded.
    /// - Parameter amountText: `DecimalAmount.format(quote.amount)`, when the caller has it already.
    @discardableResult
    package func record(_ quote: Quote, amount amountText: String? = nil, source: QuoteSource, receivedAt: Date) -> Bool {
        let amountText = amountText ?? DecimalAmount.format(quote.amount)
        let series = Series(asset: quote.asset, currency: quote.currency, provider: quote.provider)
        let point = Point(amount: quote.amount, source: source, timestamp: quote.timestamp, receivedAt: receivedAt)
        return state.withLock { state in
            state.updates += 1
            if state.rings[series] == nil, state.rings.count >= maximum,
               let oldest = state.rings.min(by: { $0.value.lastUpdate < $1.value.lastUpdate })?.key {
                state.rings[oldest] = nil
                state.evicted += 1
            }
            let kept = state.rings[series, default: Ring()].record(point, amountText: amountText, capacity: capacity)
            if kept { state.rings[series]?.lastUpdate = state.updates }
            return kept
        }
    }

    /// The points of `asset` in `currency` got at or after `since`, of `providers` (every one when `nil`),
    /// ordered by their timestamps, oldest first (the same time: by provider).
    package func points(asset: String, currency: String, providers: [String]?, since: Date) -> [(provider: String, point: Point)] {
        let found: [(provider: String, point: Point)] = state.withLock { state in
            var found: [(provider: String, point: Point)] = []
            for (series, ring) in state.rings where series.asset == asset && series.currency == currency
                && providers.map({ $0.contains(series.provider) }) != false {
                for point in ring.ordered where point.receivedAt >= since { found.append((series.provider, point)) }
            }
            return found
        }
        return found.enumerated().sorted { left, right in
            (left.element.point.timestamp, left.element.provider, left.offset) < (right.element.point.timestamp, right.element.provider, right.offset)
        }.map(\.element)
    }

    /// How many series are kept now.
    package var seriesCount: Int { state.withLock { $0.rings.count } }

    /// How many series were evicted to make room for new ones.
    package var evictedCount: Int { state.withLock { $0.evicted } }
}
