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

    /// Aggregates `sources` (at least one), flagging those more than `maxDeviationBps` from the median.
    package init(sources: [Quote], maxDeviationBps: Decimal?) {
        let amounts = sources.map(\.amount).sorted()
        let middle = amounts.count / 2
        let median = amounts.count % 2 == 1 ? amounts[middle] : (amounts[middle - 1] + amounts[middle]) / 2
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
