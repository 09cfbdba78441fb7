import BitstampProviderLibrary
import Foundation
import PriceHostTesting
import ProviderABI
import Testing

struct BitstampResponseTests {
    static let btc = QuoteRequest(asset: "BTC", currency: "USD")
    static let receipt = Date(timeIntervalSince1970: 1_800_000_000)

    func quote(_ status: Int, _ text: String, headers: [HTTPHeader] = []) throws -> Quote {
        try BitstampResponse.quote(from: HTTPResponse(status: status, headers: headers, body: body(text)), for: Self.btc,
                                   provider: "bitstamp", now: Self.receipt)
    }

    /// Bitstamp's ticker as it sends it (its fields and their order, from its API reference).
    static let recorded = #"{"timestamp": "1700000000", "open": "36500.00", "high": "38000.00", "low": "36000.00", "last": "37000.123456789012345678", "volume": "1234.56789012", "vwap": "37500.10", "bid": "36999.10", "ask": "37001.00", "side": "0", "open_24": "36450.00", "percent_change_24": "1.51"}"#

    @Test func lastIsTheExactAmountWithTheBookAndTimestampIsBitstampsSeconds() throws {
        let quote = try quote(200, Self.recorded)
        #expect(quote == Quote(asset: "BTC", currency: "USD", amount: Decimal(string: "37000.123456789012345678")!,
                               provider: "bitstamp", timestamp: Date(timeIntervalSince1970: 1_700_000_000),
                               bid: Decimal(string: "36999.1")!, ask: Decimal(string: "37001")!))
    }

    @Test func aTickerWithoutBidOrAskHasNeither() throws {
        let quote = try quote(200, #"{"timestamp": "1700000000", "last": "37000.12", "bid": null}"#)
        #expect(quote.bid == nil && quote.ask == nil)
        #expect(quote.amount == Decimal(string: "37000.12")!)
    }

    @Test func withoutATimestampTheTimeOfReceiptIsUsed() throws {
        #expect(try quote(200, #"{"last": "1.5"}"#).timestamp == Self.receipt)
    }

    @Test(arguments: [
        (200, "", "200 with an empty body (BTC-USD)"),
        (200, #"{"last": "1"#, "200 with a body that is not JSON: line 1, column 12: unterminated string (BTC-USD)"),
        (200, #"{"last": 37000.12}"#, "200 with an unexpected shape: last: expected a string, found a number (BTC-USD)"),
        (200, #"{"timestamp": "1700000000"}"#, "200 with an unexpected shape: last: missing (BTC-USD)"),
        (200, #"{"last": "1,5"}"#, #"200 with an unexpected shape: last: not a decimal number: "1,5" (BTC-USD)"#),
        (200, #"{"last": "0"}"#, "200 with an unexpected shape: last: 0 is not a positive price (BTC-USD)"),
        (200, #"{"last": "1", "timestamp": "soon"}"#, #"200 with an unexpected shape: timestamp: not a time in seconds since 1970: "soon" (BTC-USD)"#),
        (200, #"{"last": "1", "bid": "1e3", "ask": "2"}"#, #"200 with an unexpected shape: bid: not a decimal number: "1e3" (BTC-USD)"#),
        (200, #"{"last": "1", "bid": "1", "ask": 2}"#, "200 with an unexpected shape: ask: expected a string, found a number (BTC-USD)"),
        (200, #"{"last": "1", "bid": "0", "ask": "2"}"#, "200 with an unexpected shape: bid: 0 is not a positive price (BTC-USD)"),
    ])
    func unusableAnswerIsInvalidResponse(status: Int, text: String, message: String) {
        #expect(throws: ProviderError(.invalidResponse, message)) { try quote(status, text) }
    }

    @Test func unknownPairIsNotFound() {
        #expect(throws: ProviderError(.notFound, "no pair btcusd at Bitstamp (body: <html>Not Found</html>); HTTP 404 for BTC-USD")) {
            try quote(404, "<html>Not Found</html>")
        }
    }

    @Test func bitstampsOwnErrorIsPassedOn() {
        #expect(throws: ProviderError(.unavailable, "API0005 Rate limit exceeded; HTTP 429 for BTC-USD; Retry-After: 10")) {
            try quote(429, #"{"status": "error", "reason": "Rate limit exceeded", "code": "API0005"}"#, headers: [HTTPHeader("Retry-After", "10")])
        }
        #expect(throws: ProviderError(.invalidRequest, "pair: Invalid pair.; HTTP 400 for BTC-USD")) {
            try quote(400, #"{"status": "error", "reason": {"pair": ["Invalid pair."]}}"#)
        }
    }

    @Test func maintenanceIsUnavailable() {
        #expect(throws: ProviderError(.unavailable, "body: <html>\u{20}\u{20}Maintenance</html>; HTTP 503 for BTC-USD")) {
            try quote(503, "<html>\r\nMaintenance</html>")
        }
    }
}
