import Foundation
@testable import PriceHostCore
import ProviderABI
import Testing

/// The members issue 37 adds to a quote's JSON: after the existing ones, each only when known, `ageMs` last.
struct QuoteQualityJSONTests {
    let stamped = Date(timeIntervalSince1970: 1_763_640_000)

    @Test func everyMemberKnownComesInItsOrderWithAmountsAsText() throws {
        var quote = Quote(asset: "BTC", currency: "USD", amount: try #require(DecimalAmount.parse("91234.50")), provider: "kraken",
                          timestamp: stamped, bid: DecimalAmount.parse("91234.40"), ask: DecimalAmount.parse("91234.6000"))
        quote.status = .stale
        #expect(QuoteFormatter.json(quote, at: stamped.addingTimeInterval(61.234)) == #"{"asset":"BTC","currency":"USD","amount":"91234.5","#
            + #""provider":"kraken","timestamp":"2025-11-20T12:00:00Z","bid":"91234.4","ask":"91234.6","status":"stale","ageMs":61234}"#)
    }

    @Test func unknownMembersAreAbsentNeverNull() {
        let quote = Quote(asset: "ETH", currency: "USD", amount: 3120, provider: "file", timestamp: stamped)
        #expect(QuoteFormatter.json(quote) == #"{"asset":"ETH","currency":"USD","amount":"3120","provider":"file","timestamp":"2025-11-20T12:00:00Z"}"#)
        #expect(!QuoteFormatter.json(quote, at: stamped).contains("null"))
    }

    @Test func aVenueClockAheadGivesAnAgeOfZero() {
        let quote = Quote(asset: "ETH", currency: "USD", amount: 3120, provider: "file", timestamp: stamped)
        #expect(QuoteFormatter.json(quote, at: stamped.addingTimeInterval(-2)).hasSuffix(#","ageMs":0}"#))
    }

    @Test func aStreamedQuoteIsLiveWithItsAgeWhenReceivedAfterSourceAndReceivedAt() {
        let quote = Quote(asset: "ETH", currency: "USD", amount: 3120, provider: "coinbase", timestamp: stamped)
        let update = StreamUpdate(quote: quote, source: .stream, receivedAt: stamped.addingTimeInterval(0.045))
        #expect(update.json == #"{"asset":"ETH","currency":"USD","amount":"3120","provider":"coinbase","timestamp":"2025-11-20T12:00:00Z","#
            + #""source":"stream","receivedAt":"2025-11-20T12:00:00.045Z","status":"live","ageMs":45}"#)
    }

    @Test func aFailureRefusedForItsAgeNamesTheAge() {
        #expect(QuoteFormatter.failureLine(asset: "BTC", currency: "USD", message: "too old", at: stamped, ageMilliseconds: 45_001)
            == #"{"asset":"BTC","currency":"USD","error":"too old","timestamp":"2025-11-20T12:00:00Z","ageMs":45001}"#)
    }
}
