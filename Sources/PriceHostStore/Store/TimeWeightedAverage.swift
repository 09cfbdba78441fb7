import FoundationEssentials
import ProviderABI

/// A time-weighted average price over the window (`start`, `end`] (Unix milliseconds): each price weighted by how
/// long it was in force, the price in force at `start` carried in. Time before the first price is left out, and so is
/// time after `now` (a window that ends in the future: no price is in force there yet); ``coverage`` says how much of
/// the window had one.
///
/// In exact decimal: the sum of price × milliseconds, divided by the milliseconds covered, to 38 significant digits
/// (`Decimal`), then rounded half to even to ``places`` decimal places. The coverage is rounded the same way to 6.
package struct TimeWeightedAverage: Sendable, Equatable {
    /// The decimal places of ``amount``.
    package static let places = 12
    /// The decimal places of ``coverage``.
    package static let coveragePlaces = 6

    /// The average, exact text.
    package var amount: String
    /// The quotes that began inside the window (the carried-in one is not counted).
    package var count: Int
    /// The share of the window with a price in force, as decimal text from 0 to 1.
    package var coverage: String
    /// Milliseconds of the window with a price in force.
    package var coveredMilliseconds: Int64

    /// The average of `quotes` (venue times in (`start`, `end`], oldest first) with `carried` in force at `start`,
    /// and none after `now` when it is given; `nil` when no price was in force at any time of the window.
    package init?(carried: StoredQuote?, quotes: [StoredQuote], start: Int64, end windowEnd: Int64, now: Int64? = nil) {
        guard windowEnd > start else { return nil }
        let end = min(windowEnd, now ?? windowEnd)
        var sum = Decimal(0)
        var covered: Int64 = 0
        var inForce: (amount: Decimal, since: Int64)? = carried.flatMap { quote in DecimalAmount.parse(quote.amount).map { ($0, start) } }
        for quote in quotes {
            guard let amount = DecimalAmount.parse(quote.amount) else { continue }
            let time = min(max(quote.timestamp, start), end)
            if let previous = inForce, time > previous.since {
                sum += previous.amount * Decimal(time - previous.since)
                covered += time - previous.since
            }
            inForce = (amount, time)
        }
        if let last = inForce, end > last.since {
            sum += last.amount * Decimal(end - last.since)
            covered += end - last.since
        }
        guard covered > 0 else { return nil }
        amount = DecimalText.rounded(DecimalAmount.format(sum / Decimal(covered)), places: Self.places)
        count = quotes.count
        coverage = DecimalText.rounded(DecimalAmount.format(Decimal(covered) / Decimal(windowEnd - start)), places: Self.coveragePlaces)
        coveredMilliseconds = covered
    }
}

extension QuoteStore {
    /// The TWAP of `series` over (`at` − `window`, `at`] (Unix milliseconds), no price in force after `now` (when
    /// given); `nil` when no price was in force in it.
    package func timeWeightedAverage(_ series: SeriesKey, window: Int64, at: Int64, now: Int64? = nil) throws(StoreReadError) -> TimeWeightedAverage? {
        let start = at - window
        let carried = try quote(series, atOrBefore: start)
        let inside = try quotes(series, after: start, through: at)
        return TimeWeightedAverage(carried: carried, quotes: inside, start: start, end: at, now: now)
    }
}
