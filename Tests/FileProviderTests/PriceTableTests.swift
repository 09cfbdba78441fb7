import FileProviderLibrary
import Foundation
import ProviderABI
import Testing

struct PriceTableTests {
    private func table(_ csv: String) throws -> PriceTable {
        try PriceFileParser.parse(Array(csv.utf8), path: "/srv/prices.csv")
    }

    @Test func emptyTableHasNoEntries() {
        #expect(PriceTable().entries.isEmpty)
        #expect(PriceTable().entry(for: QuoteRequest(asset: "BTC", currency: "USD")) == nil)
    }

    @Test func entryIsFoundByItsPair() throws {
        let table = try table("btc,usd,1.5,2026-11-20T12:00:00Z\n")
        let entry = try #require(table.entry(for: QuoteRequest(asset: "BTC", currency: "USD")))
        #expect(DecimalAmount.format(entry.amount) == "1.5")
        #expect(entry.timestamp == Date(timeIntervalSince1970: 1_795_176_000))
    }

    @Test func pairsAreNotInverted() throws {
        let table = try table("BTC,USD,1\n")
        #expect(table.entry(for: QuoteRequest(asset: "USD", currency: "BTC")) == nil)
    }

    @Test func lookupExpectsUpperCaseCodesAsTheHostSendsThem() throws {
        let table = try table("BTC,USD,1\n")
        #expect(table.entry(for: QuoteRequest(asset: "btc", currency: "usd")) == nil)
    }

    @Test func tablesWithTheSameEntriesAreEqual() throws {
        #expect(try table("BTC,USD,1\nETH,USD,2\n") == table("ETH,USD,2.0\nBTC,USD,1\n"))
        #expect(try table("BTC,USD,1\n") != table("BTC,USD,1,2026-11-20T12:00:00Z\n"))
    }
}
