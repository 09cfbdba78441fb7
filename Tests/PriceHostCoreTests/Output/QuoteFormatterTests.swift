import Foundation
@testable import PriceHostCore
import ProviderABI
import Testing

/// What `fetch` prints, in each format, to the character.
struct QuoteFormatterTests {
    let quotes = [
        Quote(asset: "BTC", currency: "USD", amount: Decimal(string: "91234.56")!, provider: "file",
              timestamp: Date(timeIntervalSince1970: 1_763_640_000)),
        Quote(asset: "USDC", currency: "USD", amount: 1, provider: "peg", timestamp: Date(timeIntervalSince1970: 1_763_640_000.101)),
    ]

    @Test func textAlignsTheColumns() {
        #expect(QuoteFormatter.lines(for: quotes, format: .text) == [
            "BTC-USD   91234.56  file  2025-11-20T12:00:00Z",
            "USDC-USD  1         peg   2025-11-20T12:00:00.101Z",
        ])
    }

    @Test func jsonIsOneObjectPerLineWithTheAmountAsText() {
        #expect(QuoteFormatter.lines(for: quotes, format: .json) == [
            #"{"asset":"BTC","currency":"USD","amount":"91234.56","provider":"file","timestamp":"2025-11-20T12:00:00Z"}"#,
            #"{"asset":"USDC","currency":"USD","amount":"1","provider":"peg","timestamp":"2025-11-20T12:00:00.101Z"}"#,
        ])
    }

    @Test func csvHasItsHeaderThenOneLinePerQuote() {
        #expect(QuoteFormatter.lines(for: quotes, format: .csv) == [
            "asset,currency,amount,provider,timestamp",
            "BTC,USD,91234.56,file,2025-11-20T12:00:00Z",
            "USDC,USD,1,peg,2025-11-20T12:00:00.101Z",
        ])
        #expect(QuoteFormatter.lines(for: [], format: .csv) == [QuoteFormatter.header])
    }

    @Test func aWatchFailureIsAJSONLineWithTheError() {
        #expect(QuoteFormatter.failureLine(asset: "BTC", currency: "USD", message: "file: \"quoted\" down",
                                           at: Date(timeIntervalSince1970: 1_763_640_000))
            == #"{"asset":"BTC","currency":"USD","error":"file: \"quoted\" down","timestamp":"2025-11-20T12:00:00Z"}"#)
    }

    @Test func textTablePadsEveryColumnButTheLast() {
        #expect(TextTable.lines([["a", "bbb", "c"], ["dddd", "e", "ffff"]]) == ["a     bbb  c", "dddd  e    ffff"])
    }
}
