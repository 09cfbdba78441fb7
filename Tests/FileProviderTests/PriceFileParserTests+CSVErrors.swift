import FileProviderLibrary
import Foundation
import ProviderABI
import Testing

/// What the parser says about a CSV file it will not read: each error names the file, the line and the field.
extension PriceFileParserTests {
    @Test func emptyCSVFileHasNoPrices() throws {
        let error = try #require(parseError(in: "", path: Self.csvPath))
        #expect(error == PriceFileError(path: Self.csvPath, location: "", reason: "no prices in the file"))
        #expect(error.description == "/srv/prices.csv: no prices in the file")
    }

    @Test func emptyFileWithoutAnExtensionHasNoPrices() {
        #expect(parseError(in: "", path: "/srv/prices") == PriceFileError(path: "/srv/prices", location: "", reason: "no prices in the file"))
    }

    @Test func csvOfOnlyHeaderCommentsAndBlankLinesHasNoPrices() {
        #expect(parseError(in: "# nothing yet\n\nbase,currency,amount\n  \n", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "", reason: "no prices in the file"))
    }

    @Test func csvWithTheWrongNumberOfFieldsNamesTheLine() throws {
        let error = try #require(parseError(in: "base,currency,amount\nBTC,USD\n", path: Self.csvPath))
        #expect(error == PriceFileError(path: Self.csvPath, location: "line 2",
                                        reason: "expected 3 or 4 fields (base,currency,amount[,timestamp]), found 2"))
        #expect(error.description == "/srv/prices.csv: line 2: expected 3 or 4 fields (base,currency,amount[,timestamp]), found 2")
        #expect(parseError(in: "BTC,USD,1,2026-11-20T12:00:00Z,x", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 1", reason: "expected 3 or 4 fields (base,currency,amount[,timestamp]), found 5"))
    }

    @Test func csvLineNumbersCountCommentsAndBlankLines() {
        #expect(parseError(in: "# header comment\n\nBTC,USD,1\n\nETH,USD,oops\n", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 5", reason: #"amount is not a decimal number: "oops""#))
    }

    @Test func csvDuplicatePairNamesTheSecondLine() {
        #expect(parseError(in: "BTC,USD,1\nbtc,usd,2\n", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 2", reason: "BTC-USD appears more than once"))
    }

    @Test func csvBadAmountIsQuoted() {
        #expect(parseError(in: "BTC,USD,12.5.1", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 1", reason: #"amount is not a decimal number: "12.5.1""#))
        #expect(parseError(in: "BTC,USD,", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 1", reason: #"amount is not a decimal number: """#))
    }

    @Test func csvDecimalCommaIsReportedAsABadTimestamp() {
        // "1,5" splits into amount "1" and timestamp "5".
        #expect(parseError(in: "BTC,USD,1,5", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 1", reason: #"timestamp is not an ISO 8601 timestamp such as 2026-11-20T12:00:00Z: "5""#))
    }

    @Test func csvBadCodeNamesTheField() {
        #expect(parseError(in: "B?C,USD,1", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 1", reason: #"base "B?C" is not a code of 2 to 10 letters or digits"#))
        #expect(parseError(in: "BTC,../x,1", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 1", reason: #"currency "../x" is not a code of 2 to 10 letters or digits"#))
    }

    @Test func csvBadTimestampIsQuoted() {
        #expect(parseError(in: "BTC,USD,1,yesterday", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 1", reason: #"timestamp is not an ISO 8601 timestamp such as 2026-11-20T12:00:00Z: "yesterday""#))
    }

    @Test func csvHeaderAfterDataIsReadAsData() {
        #expect(parseError(in: "BTC,USD,1\nbase,currency,amount\n", path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 2", reason: #"amount is not a decimal number: "amount""#))
    }

    @Test func csvThatIsNotUTF8IsRejected() throws {
        let bytes: [UInt8] = Array("BTC,USD,1".utf8) + [0xFF, 0x0A]
        let error = try #require(throws: PriceFileError.self) {
            try PriceFileParser.parse(bytes, path: Self.csvPath)
        }
        #expect(error == PriceFileError(path: Self.csvPath, location: "line 1", reason: "not UTF-8 text"))
        #expect(error.description == "/srv/prices.csv: line 1: not UTF-8 text")
    }

    @Test func csvWithAByteOrderMarkIsRead() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("base,currency,amount\nBTC,USD,1\n".utf8)
        let table = try PriceFileParser.parse(bytes, path: Self.csvPath)
        #expect(amounts(table) == ["BTC-USD": "1"])
    }
}
