import Foundation
@testable import PriceHostCore
import ProviderABI
import Testing

struct AggregateQuoteWarningsTests {
    static let request = QuoteRequest(asset: "BTC", currency: "USD")

    func aggregate(_ providers: [String]) -> Result<AggregateQuote, QuoteFailure> {
        .success(AggregateQuote(sources: providers.map {
            Quote(asset: "BTC", currency: "USD", amount: 100, provider: $0, timestamp: Date(timeIntervalSince1970: 0))
        }, maxDeviationBps: nil))
    }

    func failure(_ provider: String, _ message: String) -> QuoteFailure {
        QuoteFailure(provider: provider, request: Self.request, code: .unavailable, message: message)
    }

    @Test func medianOfOneNamesTheSourceAndEveryOtherFailureOnOneLine() {
        let warnings = AggregateQuote.sourceWarnings(for: aggregate(["kraken"]), leftOut: [failure("gemini", "down"), failure("bitstamp", "429")])
        #expect(warnings == ["median of 1 source: kraken; the others failed: gemini: down; bitstamp: 429"])
    }

    @Test func medianOfTheOnlyProviderAskedSaysSo() {
        #expect(AggregateQuote.sourceWarnings(for: aggregate(["file"]), leftOut: [])
            == ["median of 1 source: file; no other provider was asked (name several: --provider a,b,c or assets.BTC.providers)"])
    }

    @Test func severalSourcesWarnOnlyOfThoseLeftOut() {
        #expect(AggregateQuote.sourceWarnings(for: aggregate(["a", "b"]), leftOut: [failure("c", "down")]) == ["left out of the median: c: down"])
        #expect(AggregateQuote.sourceWarnings(for: aggregate(["a", "b"]), leftOut: []) == [])
        #expect(AggregateQuote.sourceWarnings(for: .failure(failure("a,b", "no source answered")), leftOut: []) == [])
    }
}
