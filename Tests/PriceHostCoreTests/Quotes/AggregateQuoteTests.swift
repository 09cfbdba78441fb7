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

    @Test func oneSourceIsItsOwnMedianWithNoSpread() {
        let aggregate = AggregateQuote(sources: [quote("a", "42.5")], maxDeviationBps: 1)
        #expect(aggregate.median == Decimal(string: "42.5"))
        #expect(aggregate.spreadBasisPoints == 0)
        #expect(aggregate.outliers == [])
    }
}
