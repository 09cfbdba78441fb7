import FileProviderLibrary
import Foundation
import ProviderABI
import Testing

struct PriceFileParserTests {
    static let jsonPath = "/srv/prices.json"
    static let csvPath = "/srv/prices.csv"
    /// 2026-11-20T12:00:00Z.
    static let noon = Date(timeIntervalSince1970: 1_795_176_000)

    func parse(_ text: String, path: String = jsonPath) throws(PriceFileError) -> PriceTable {
        try PriceFileParser.parse(Array(text.utf8), path: path)
    }

    func amounts(_ table: PriceTable) -> [String: String] {
        table.entries.mapValues { DecimalAmount.format($0.amount) }
    }

    func timestamps(_ table: PriceTable) -> [String: Date?] {
        table.entries.mapValues(\.timestamp)
    }

    func parseError(in text: String, path: String = jsonPath) -> PriceFileError? {
        do {
            _ = try parse(text, path: path)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Formats

    @Test func readsCoinbaseShape() throws {
        let table = try parse(#"{"data": {"base": "BTC", "currency": "USD", "amount": "15840.01"}}"#)
        #expect(amounts(table) == ["BTC-USD": "15840.01"])
        #expect(timestamps(table) == ["BTC-USD": nil])
    }

    @Test func readsAListOfQuotesIncludingCoinbaseShapedOnes() throws {
        let table = try parse("""
            [
              {"base": "BTC", "currency": "USD", "amount": "15840.01", "timestamp": "2026-11-20T12:00:00Z"},
              {"base": "eth", "currency": "usd", "amount": 3120.50, "timestamp": null},
              {"data": {"base": "SOL", "currency": "EUR", "amount": "142.25"}}
            ]
            """)
        #expect(amounts(table) == ["BTC-USD": "15840.01", "ETH-USD": "3120.5", "SOL-EUR": "142.25"])
        #expect(timestamps(table) == ["BTC-USD": Self.noon, "ETH-USD": nil, "SOL-EUR": nil])
    }

    @Test func readsAMapOfPairs() throws {
        let table = try parse("""
            {
              "BTC-USD": "15840.01",
              "eth-usd": {"amount": "3120.5", "timestamp": "2026-11-20T12:00:00.250Z"},
              "SOL-EUR": 142.25
            }
            """)
        #expect(amounts(table) == ["BTC-USD": "15840.01", "ETH-USD": "3120.5", "SOL-EUR": "142.25"])
        #expect(timestamps(table) == ["BTC-USD": nil, "ETH-USD": Self.noon.addingTimeInterval(0.25), "SOL-EUR": nil])
    }

    @Test func readsJSONNumbersExactly() throws {
        let table = try parse(#"{"BTC-USD": 0.1000000000000000055511151231257827}"#)
        #expect(amounts(table) == ["BTC-USD": "0.1000000000000000055511151231257827"])
    }

    @Test func readsCSVWithHeaderCommentsBlankLinesAndTimestamps() throws {
        let table = try parse("""
            # prices for the tests
            base,currency,amount,timestamp

            BTC, USD, 15840.01, 2026-11-20T12:00:00Z
              # an indented comment
            eth,usd,3120.5
            \t
            SOL,EUR,142.25,
            """, path: Self.csvPath)
        #expect(amounts(table) == ["BTC-USD": "15840.01", "ETH-USD": "3120.5", "SOL-EUR": "142.25"])
        #expect(timestamps(table) == ["BTC-USD": Self.noon, "ETH-USD": nil, "SOL-EUR": nil])
    }

    @Test func readsCSVWithWindowsLineEndings() throws {
        let table = try parse("base,currency,amount\r\nBTC,USD,1\r\nETH,USD,2\r\n", path: Self.csvPath)
        #expect(amounts(table) == ["BTC-USD": "1", "ETH-USD": "2"])
    }

    @Test func readsCSVWithWindowsLineEndingsAndALeadingComment() throws {
        let table = try parse("# prices\r\nBTC,USD,1\r\nETH,USD,2\r\n", path: Self.csvPath)
        #expect(amounts(table) == ["BTC-USD": "1", "ETH-USD": "2"])
    }

    @Test func csvWithMixedLineEndingsKeepsEveryPrice() throws {
        let table = try parse("# prices\r\nBTC,USD,1\nETH,USD,2\n", path: Self.csvPath)
        #expect(amounts(table) == ["BTC-USD": "1", "ETH-USD": "2"])
    }

    @Test func readsCSVWithoutAHeader() throws {
        let table = try parse("BTC,USD,15840.01\n", path: Self.csvPath)
        #expect(amounts(table) == ["BTC-USD": "15840.01"])
    }

    @Test func csvHeaderIsMatchedWithoutRegardToCase() throws {
        let table = try parse("Base, Currency, Amount\nBTC,USD,1\n", path: Self.csvPath)
        #expect(amounts(table) == ["BTC-USD": "1"])
    }

    // MARK: Format detection

    @Test func extensionDecidesTheFormat() {
        let json = Array(#"{"BTC-USD": "1"}"#.utf8)
        let csv = Array("BTC,USD,1".utf8)
        #expect(PriceFileParser.Format.detect(path: "/srv/prices.csv", contents: json) == .csv)
        #expect(PriceFileParser.Format.detect(path: "/srv/PRICES.CSV", contents: json) == .csv)
        #expect(PriceFileParser.Format.detect(path: "/srv/prices.json", contents: csv) == .json)
        #expect(PriceFileParser.Format.detect(path: "/srv/Prices.Json", contents: csv) == .json)
    }

    @Test func withoutAKnownExtensionTheFirstNonBlankCharacterDecides() {
        #expect(PriceFileParser.Format.detect(path: "/srv/prices.txt", contents: Array(" \r\n\t[]".utf8)) == .json)
        #expect(PriceFileParser.Format.detect(path: "/srv/prices", contents: Array("{}".utf8)) == .json)
        #expect(PriceFileParser.Format.detect(path: "/srv/prices.txt", contents: Array("BTC,USD,1".utf8)) == .csv)
        #expect(PriceFileParser.Format.detect(path: "/srv/prices", contents: Array("# {json?}".utf8)) == .csv)
        #expect(PriceFileParser.Format.detect(path: "/srv/prices", contents: []) == .csv)
    }

    @Test func jsonContentWithoutAnExtensionIsReadAsJSON() throws {
        let table = try parse(#"  {"BTC-USD": "1"}"#, path: "/srv/prices.txt")
        #expect(amounts(table) == ["BTC-USD": "1"])
    }

    @Test func jsonContentInACSVFileIsReadAsCSV() {
        #expect(parseError(in: #"{"BTC-USD": "1"}"#, path: Self.csvPath) == PriceFileError(
            path: Self.csvPath, location: "line 1",
            reason: "expected 3 or 4 fields (base,currency,amount[,timestamp]), found 1"))
    }

    @Test func byteOrderMarkDoesNotHideJSONWithoutAnExtension() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"BTC-USD": "1"}"#.utf8)
        #expect(PriceFileParser.Format.detect(path: "/srv/prices", contents: bytes) == .json)
    }

    // MARK: JSON errors

    @Test func malformedJSONNamesTheLineAndColumn() throws {
        let error = try #require(parseError(in: "{\n  \"BTC-USD\": \"1\",\n}"))
        #expect(error == PriceFileError(path: Self.jsonPath, location: "line 3, column 1", reason: "expected a string key, found '}'"))
        #expect(error.description == "/srv/prices.json: line 3, column 1: expected a string key, found '}'")
    }

    @Test func duplicateJSONKeyIsAParseError() {
        #expect(parseError(in: #"{"BTC-USD": "1", "BTC-USD": "2"}"#) == PriceFileError(
            path: Self.jsonPath, location: "line 1, column 18", reason: #"duplicate key "BTC-USD""#))
    }

    @Test func wrongTypeNamesTheKeyPath() throws {
        let error = try #require(parseError(in: """
            [{"base": "BTC", "currency": "USD", "amount": "1"},
             {"base": "ETH", "currency": "USD", "amount": true}]
            """))
        #expect(error == PriceFileError(path: Self.jsonPath, location: "[1].amount",
                                        reason: #"expected a decimal string such as "15840.01", found a boolean"#))
        #expect(error.description == #"/srv/prices.json: [1].amount: expected a decimal string such as "15840.01", found a boolean"#)
    }

    @Test func nullAmountInAMapIsAWrongType() {
        #expect(parseError(in: #"{"BTC-USD": null}"#) == PriceFileError(
            path: Self.jsonPath, location: "BTC-USD", reason: #"expected a decimal string such as "15840.01", found null"#))
    }

    @Test func codeOfTheWrongTypeNamesTheKeyPath() {
        #expect(parseError(in: #"[{"base": 1, "currency": "USD", "amount": "1"}]"#) == PriceFileError(
            path: Self.jsonPath, location: "[0].base", reason: "expected a string, found a number"))
    }

    @Test func unknownKeyInAQuoteListsTheKnownKeys() {
        #expect(parseError(in: #"[{"base": "BTC", "currency": "USD", "price": "1"}]"#) == PriceFileError(
            path: Self.jsonPath, location: "[0].price", reason: "unknown key; expected one of: base, currency, amount, timestamp"))
    }

    @Test func unknownKeyInCoinbaseShapeNamesItsPath() {
        #expect(parseError(in: #"{"data": {"base": "BTC", "currency": "USD", "amount": "1", "extra": true}}"#) == PriceFileError(
            path: Self.jsonPath, location: "data.extra", reason: "unknown key; expected one of: base, currency, amount, timestamp"))
    }

    @Test func unknownKeyInAMapValueListsTheKnownKeys() {
        #expect(parseError(in: #"{"BTC-USD": {"amount": "1", "time": "2026-11-20T12:00:00Z"}}"#) == PriceFileError(
            path: Self.jsonPath, location: "BTC-USD.time", reason: "unknown key; expected one of: amount, timestamp"))
    }

    @Test func missingAmountIsNamed() {
        #expect(parseError(in: #"[{"base": "BTC", "currency": "USD"}]"#) == PriceFileError(
            path: Self.jsonPath, location: "[0].amount", reason: "missing"))
    }

    @Test func duplicatePairInAListNamesTheSecondElement() {
        let text = #"[{"base": "BTC", "currency": "USD", "amount": "1"}, {"base": "btc", "currency": "usd", "amount": "2"}]"#
        #expect(parseError(in: text) == PriceFileError(path: Self.jsonPath, location: "[1]", reason: "BTC-USD appears more than once"))
    }

    @Test func duplicatePairInAMapDifferingOnlyInCaseIsRejected() {
        #expect(parseError(in: #"{"BTC-USD": "1", "btc-usd": "2"}"#) == PriceFileError(
            path: Self.jsonPath, location: "btc-usd", reason: "BTC-USD appears more than once"))
    }

    @Test func amountThatIsNotADecimalIsQuoted() {
        #expect(parseError(in: #"{"BTC-USD": "12,5"}"#) == PriceFileError(
            path: Self.jsonPath, location: "BTC-USD", reason: #"not a decimal number: "12,5""#))
        #expect(parseError(in: #"{"BTC-USD": 1e3}"#) == PriceFileError(
            path: Self.jsonPath, location: "BTC-USD", reason: #"not a decimal number: "1e3""#))
    }

    @Test func badCodeInAQuoteIsQuoted() {
        #expect(parseError(in: #"[{"base": "../x", "currency": "USD", "amount": "1"}]"#) == PriceFileError(
            path: Self.jsonPath, location: "[0].base", reason: #""../x" is not a code of 2 to 10 letters or digits"#))
        #expect(parseError(in: #"[{"base": "BTC", "currency": "U", "amount": "1"}]"#) == PriceFileError(
            path: Self.jsonPath, location: "[0].currency", reason: #""U" is not a code of 2 to 10 letters or digits"#))
    }

    @Test func mapKeyThatIsNotAPairIsNamed() {
        #expect(parseError(in: #"{"BTCUSD": "1"}"#) == PriceFileError(
            path: Self.jsonPath, location: "BTCUSD", reason: "key is not a pair like BTC-USD"))
        #expect(parseError(in: #"{"BTC-USD-X": "1"}"#) == PriceFileError(
            path: Self.jsonPath, location: "BTC-USD-X", reason: "key is not a pair like BTC-USD"))
        #expect(parseError(in: #"{"BTC-U$D": "1"}"#) == PriceFileError(
            path: Self.jsonPath, location: "BTC-U$D", reason: #""U$D" is not a code of 2 to 10 letters or digits"#))
    }

    @Test func badTimestampIsQuoted() {
        #expect(parseError(in: #"[{"base": "BTC", "currency": "USD", "amount": "1", "timestamp": "yesterday"}]"#) == PriceFileError(
            path: Self.jsonPath, location: "[0].timestamp",
            reason: #"not an ISO 8601 timestamp such as 2026-11-20T12:00:00Z: "yesterday""#))
        #expect(parseError(in: #"{"BTC-USD": {"amount": "1", "timestamp": 1795176000}}"#) == PriceFileError(
            path: Self.jsonPath, location: "BTC-USD.timestamp", reason: "expected a string, found a number"))
    }

    @Test func topLevelMustBeAnObjectOrAnArray() {
        #expect(parseError(in: #""BTC-USD""#) == PriceFileError(
            path: Self.jsonPath, location: "(top level)", reason: "expected an object or an array of quotes, found a string"))
    }

    @Test func listElementMustBeAnObject() {
        #expect(parseError(in: "[1]") == PriceFileError(path: Self.jsonPath, location: "[0]", reason: "expected an object, found a number"))
    }

    @Test func emptyJSONListOrMapHasNoPrices() {
        let expected = PriceFileError(path: Self.jsonPath, location: "", reason: "no prices in the file")
        #expect(parseError(in: "[]") == expected)
        #expect(parseError(in: "{ }") == expected)
        #expect(expected.description == "/srv/prices.json: no prices in the file")
    }

    @Test func emptyJSONFileSaysItIsEmpty() {
        #expect(parseError(in: "") == PriceFileError(
            path: Self.jsonPath, location: "line 1, column 1", reason: "the text is empty, expected a JSON value"))
    }
}
