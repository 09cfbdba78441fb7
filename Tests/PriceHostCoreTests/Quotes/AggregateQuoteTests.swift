import Foundation
@testable import PriceHostCore
import ProviderABI
import Testing

struct AggregateQuoteTests {
    func quote(_ provider: String, _ amount: String, at seconds: TimeInterval = 0) -> Quote {
        Quote(asset: "BTC", currency: "USD", amount: Decimal(string: amount)!, provider: provider, timestamp: Date(timeIntervalSince1970: seconds))
    }

    @Test func oddCountTakesTheMiddleAndMeasuresTheSpread() {
        let aggregate = AggregateQuote(sources: [quote("c", "110"), quote("a", "100"), quote("b", "101", at: 5)], maxDeviationBps: nil)
        #expect(aggregate.median == 101)
        #expect(aggregate.minimum == 100)
        #expect(aggregate.maximum == 110)
        #expect(aggregate.spreadBasisPoints == Decimal(string: "990.1"))
        #expect(aggregate.outliers == [])
        #expect(aggregate.timestamp == Date(timeIntervalSince1970: 5))
    }

    @Test func evenCountAveragesTheMiddleTwoExactly() {
        let aggregate = AggregateQuote(sources: [quote("a", "0.1"), quote("b", "0.2"), quote("c", "0.3"), quote("d", "100")], maxDeviationBps: nil)
        #expect(aggregate.median == Decimal(string: "0.25"))
    }

    @Test func sourcesBeyondTheDeviationLimitAreFlagged() {
        let aggregate = AggregateQuote(sources: [quote("a", "100"), quote("b", "101"), quote("c", "110")], maxDeviationBps: 500)
        #expect(aggregate.outliers == ["c"])
    }

    /// `confidence`: the median absolute deviation from the median, by the median's rule, exact.
    @Test func confidenceIsTheExactMedianAbsoluteDeviation() {
        // 100, 101, 110 around 101: deviations 1, 0, 9; their median 1.
        #expect(AggregateQuote(sources: [quote("a", "100"), quote("b", "101"), quote("c", "110")], maxDeviationBps: nil).confidence == 1)
        // 0.1, 0.2, 0.3, 100 around 0.25: deviations 0.15, 0.05, 0.05, 99.75; the middle two's mean 0.1.
        let even = AggregateQuote(sources: [quote("a", "0.1"), quote("b", "0.2"), quote("c", "0.3"), quote("d", "100")], maxDeviationBps: nil)
        #expect(even.confidence == Decimal(string: "0.1"))
        // 1, 2, 4, 7 around 3: deviations 2, 1, 1, 4; (1 + 2) / 2.
        #expect(AggregateQuote(sources: [quote("a", "7"), quote("b", "1"), quote("c", "4"), quote("d", "2")], maxDeviationBps: nil).confidence
            == Decimal(string: "1.5"))
        // Many digits stay exact: 64000.123456789012345678 and 64000.123456789012345679 around their mean.
        let fine = AggregateQuote(sources: [quote("a", "64000.123456789012345678"), quote("b", "64000.123456789012345679")], maxDeviationBps: nil)
        #expect(DecimalAmount.format(fine.confidence) == "0.0000000000000000005")
        #expect(AggregateQuote(sources: [quote("a", "42.5")], maxDeviationBps: nil).confidence == 0)
    }

    @Test func oneSourceIsItsOwnMedianWithNoSpread() {
        let aggregate = AggregateQuote(sources: [quote("a", "42.5")], maxDeviationBps: 1)
        #expect(aggregate.median == Decimal(string: "42.5"))
        #expect(aggregate.spreadBasisPoints == 0)
        #expect(aggregate.outliers == [])
    }
}
