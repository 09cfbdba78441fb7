import FoundationEssentials
import ProviderABI

/// One asset's price across several providers: the median, the range, the
/// spread, and the sources that stray from the median by more than allowed.
package struct AggregateQuote: Sendable, Equatable {
    /// The asset.
    package var asset: String
    /// The quote currency.
    package var currency: String
    /// The median of the sources' amounts (the mean of the middle two for an even count).
    package var median: Decimal
    /// The lowest amount.
    var minimum: Decimal
    /// The highest amount.
    var maximum: Decimal
    /// `(max - min) / median` in basis points, to two decimal places.
    var spreadBasisPoints: Decimal
    /// The sources that answered, in the order they were asked.
    package var sources: [Quote]
    /// The providers whose amount deviates from the median by more than `assets.X.maxDeviationBps`.
    package var outliers: [String]
    /// The newest of the sources' timestamps.
    package var timestamp: Date
    /// How far the sources agree: the median absolute deviation of their amounts from the median, exact (the
    /// median of the deviations by the median's own rule: the mean of the middle two for an even count).
    package var confidence: Decimal
    /// The providers asked that are not among the sources, and why (failed, stale, out of bounds), in the order asked.
    package var excluded: [Exclusion] = []

    /// A provider asked whose quote is not in the median.
    package struct Exclusion: Sendable, Equatable {
        package var provider: String
        /// `failed: …`, `stale: 120 s old, maxAgeSeconds 60`, or `out of bounds: …`.
        package var why: String

        package init(provider: String, why: String) {
            self.provider = provider
            self.why = why
        }

        /// The why of a quote `ageSeconds` old, past its `maxAgeSeconds`.
        package static func stale(ageSeconds: Int, maxAgeSeconds: Int) -> String {
            "stale: \(ageSeconds) s old, maxAgeSeconds \(maxAgeSeconds)"
        }
    }

    /// Aggregates `sources` (at least one), flagging those more than `maxDeviationBps` from the median.
    package init(sources: [Quote], maxDeviationBps: Decimal?) {
        let amounts = sources.map(\.amount).sorted()
        let median = Self.median(ofSorted: amounts)
        asset = sources[0].asset
        currency = sources[0].currency
        self.median = median
        minimum = amounts[0]
        maximum = amounts[amounts.count - 1]
        spreadBasisPoints = median == 0 ? 0 : Self.rounded((maximum - minimum) / median * 10_000)
        self.sources = sources
        outliers = maxDeviationBps.map { limit in
            sources.filter { median != 0 && Self.deviation(of: $0.amount, from: median) > limit }.map(\.provider)
        } ?? []
        timestamp = sources.map(\.timestamp).max() ?? Date()
        confidence = Self.median(ofSorted: amounts.map { $0 < median ? median - $0 : $0 - median }.sorted())
    }

    /// The middle of `sorted` (at least one), or the mean of the middle two for an even count: exact, as a halving is.
    static func median(ofSorted sorted: [Decimal]) -> Decimal {
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// `|amount - median| / median` in basis points.
    package static func deviation(of amount: Decimal, from median: Decimal) -> Decimal {
        let difference = amount - median
        return (difference < 0 ? -difference : difference) / median * 10_000
    }

    /// `value` to 2 decimal places, halves away from zero.
    ///
    /// On its exact text: `NSDecimalRound` is Foundation's, not FoundationEssentials'.
    package static func rounded(_ value: Decimal) -> Decimal {
        let text = DecimalAmount.format(value)
        guard let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 3,
              let kept = DecimalAmount.parse(String(text[..<text.index(dot, offsetBy: 3)])) else { return value }
        let roundsAway = text[text.index(dot, offsetBy: 3)] >= "5"
        let cent = Decimal(sign: value < 0 ? .minus : .plus, exponent: -2, significand: 1)
        return roundsAway ? kept + cent : kept
    }
}
